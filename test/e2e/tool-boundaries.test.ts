// End to end against the REAL claude: every tool boundary Claude Code announces cuts a turn past the
// line, not only a call that worked. A turn going round in failing Bash calls is cut at its first failed
// call (PostToolUseFailure); a call a person refuses at the permission prompt ends the turn with no hook,
// and the request is typed at the prompt it leaves. Either way the document is the model's and the
// successor starts from it.
import t from 'tap';
import type { Test } from 'tap';
import { readFileSync } from 'node:fs';
import { text, bash, usageFor, type MockReply, type MockRequest, type Respond } from '../../src/mock/messages-api.js';
import { startFlower, handoffDoc, HANDOFF_ASK, TAKING_OVER, type FlowerRun } from '../helpers/flower-run.js';

const TYPED_ASK = /your context window is nearly full\. Read the file/;
const FAILING = 'ls /nonexistent-flower-xyz';

// Generation 1 follows `first` until the handoff is asked for (in a hook's reason or typed), then answers
// with the document; successors answer plainly.
function lineage(marker: string, first: (req: MockRequest, i: number) => MockReply): Respond {
  let firstSession: string | undefined;
  let i = 0;
  return (req) => {
    if (!req.isMain) return text('side');
    firstSession ??= req.sessionId;
    if (req.sessionId !== firstSession) return text('successor here, continuing', usageFor(12_000));
    if (HANDOFF_ASK.test(req.lastUserText) || TYPED_ASK.test(req.lastUserText))
      return text(handoffDoc(marker), usageFor(62_000));
    return first(req, i++);
  };
}

async function modelsDocumentCarriedOn(t: Test, f: FlowerRun, marker: string): Promise<void> {
  const done = await f.waitForEvent('done', 60_000);
  t.equal(done.degraded, false, "the document is the model's, not degraded");
  t.match(readFileSync(f.documentPath, 'utf8'), new RegExp(`\\(${marker}\\)`));
  const start2 = await f.waitForEvent('generation-start', 30_000, (e) => e.generation === 2);
  await f.run.waitFor(
    () => f.api.requests.some((r) => r.sessionId === start2.session_id && r.isMain),
    60_000,
    'the successor',
  );
  const first2 = f.api.requests.find((r) => r.sessionId === start2.session_id && r.isMain)!;
  t.match(first2.lastUserText, TAKING_OVER);
  t.match(first2.lastUserText, new RegExp(`\\(${marker}\\)`), 'the successor starts from that document');
}

t.test('a turn of failing Bash calls is cut at the first failed call past the line (PostToolUseFailure)', async (t) => {
  // 20k, 32k, 44k, 56k: the fourth call's response crosses the 50k line; every call exits 2.
  const respond = lineage('FAILED', (_req, i) => bash(`${FAILING}-${i}`, usageFor(20_000 + i * 12_000)));
  const f = await startFlower({
    t,
    respond,
    prompt: 'list the missing folders',
    flowerArgs: ['--window', '100k', '--review', '0'],
  });
  const writing = await f.waitForEvent('writing', 90_000);
  t.equal(writing.cut, 'tool-boundary');
  t.equal(writing.context, 56_000, 'cut at the call whose response crossed the line');
  const ask = await f.api.waitForRequest((r) => HANDOFF_ASK.test(r.lastUserText), 30_000);
  t.match(ask.lastUserText, /PostToolUseFailure/, "through the failed call's own hook, mid-turn");
  t.match(
    ask.lastUserText,
    /nonexistent-flower-xyz-3|No such file/,
    'right after the failed call that crossed the line',
  );
  const main = f.api.requests.filter((r) => r.isMain);
  t.notOk(
    main.slice(0, main.indexOf(ask)).some((r) => HANDOFF_ASK.test(r.lastUserText)),
    'not before',
  );
  t.notOk(
    f.events().some((e) => e.event === 'overflow'),
    'the turn never ran into the wall',
  );
  await modelsDocumentCarriedOn(t, f, 'FAILED');
});

t.test(
  'a person\'s "no" at the permission prompt of the call past the line: the request is typed at the prompt it leaves',
  async (t) => {
    // The call that crosses the line needs approval (every Bash call does in the default mode).
    const respond = lineage('REFUSED', () => bash('touch refused-file', usageFor(56_000)));
    const f = await startFlower({
      t,
      respond,
      prompt: 'make the file',
      flowerArgs: ['--window', '100k', '--review', '0'],
      claudeArgs: ['--permission-mode', 'default'],
    });
    await f.waitForEvent('needs-permission', 90_000, (e) => /refused-file/.test(String(e.what)));
    await f.run.waitForScreen(/Do you want to proceed|proceed\?/i, 20_000);
    f.run.pty.write('\x1b');
    const writing = await f.waitForEvent('writing', 30_000);
    t.equal(writing.cut, 'typed', 'the turn ended with no hook: the request went into the prompt it left');
    t.equal(writing.context, 56_000);
    await f.api.waitForRequest((r) => TYPED_ASK.test(r.lastUserText), 30_000);
    await modelsDocumentCarriedOn(t, f, 'REFUSED');
  },
);

t.test('parallel failing calls in one response: cut at the first of them to end, the others pass', async (t) => {
  // 2.1.332 runs a response's read-only calls together; each ends with its own PostToolUseFailure.
  const pair = (i: number, usage: number): MockReply => ({
    kind: 'tool',
    name: 'Bash',
    input: { command: `${FAILING}-a${i}`, description: 'mock step' },
    also: [{ name: 'Bash', input: { command: `${FAILING}-b${i}`, description: 'mock step' } }],
    usage: usageFor(usage),
  });
  const respond = lineage('PARALLEL', (_req, i) => pair(i, 30_000 + i * 26_000)); // 30k, then 56k: the second pair crosses
  const f = await startFlower({
    t,
    respond,
    prompt: 'list both missing folders',
    flowerArgs: ['--window', '100k', '--review', '0'],
  });
  const writing = await f.waitForEvent('writing', 90_000);
  t.equal(writing.cut, 'tool-boundary');
  t.equal(writing.context, 56_000);
  const ask = await f.api.waitForRequest((r) => HANDOFF_ASK.test(r.lastUserText), 30_000);
  t.match(ask.lastUserText, /PostToolUseFailure/);
  t.match(ask.allText, /nonexistent-flower-xyz-a1/);
  t.match(
    ask.allText,
    /nonexistent-flower-xyz-b1/,
    'both calls of the crossing response ran and their results went with the request',
  );
  t.equal(f.api.requests.filter((r) => r.isMain && HANDOFF_ASK.test(r.lastUserText)).length, 1, 'asked once');
  await modelsDocumentCarriedOn(t, f, 'PARALLEL');
});
