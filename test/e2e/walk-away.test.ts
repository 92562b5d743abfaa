// Walk-away behaviours with the REAL claude against the mock: the crossing made by a turn's last
// response is cut at that turn's end in every cycle; with hooks disabled by a policy the run says so
// and still hands off (typed at the idle prompt); a permission wait is told at once.
import t from 'tap';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bash, text, usageFor, type MockRequest } from '../../src/mock/messages-api.js';
import { startFlower, handoffDoc, HANDOFF_ASK } from '../helpers/flower-run.js';

// Per session: four tool steps below the line, then a final reply that crosses it (window 100k, line 50k).
function autonomousTurns() {
  const steps = new Map<string, number>();
  let docs = 0;
  return (req: MockRequest) => {
    if (!req.isMain) return text('side');
    const sid = req.sessionId ?? '?';
    if (HANDOFF_ASK.test(req.lastUserText)) {
      docs++;
      return text(handoffDoc(`CYCLE-${docs}`), usageFor(58_000));
    }
    const i = steps.get(sid) ?? 0;
    steps.set(sid, i + 1);
    const plan = [20_000, 30_000, 38_000, 44_000];
    if (i < plan.length) return bash(`echo step ${i + 1}`, usageFor(plan[i]!));
    if (i === plan.length) return text(`final reply of ${sid.slice(0, 8)}`, usageFor(56_000));
    return text('waiting', usageFor(57_000));
  };
}

t.test('every cycle asks for the document at the end of the turn whose last response crossed the line', async (t) => {
  const notifyLog = join(tmpdir(), `flower-notify-${process.pid}-${Date.now()}.log`);
  t.teardown(() => rmSync(notifyLog, { force: true }));
  const f = await startFlower({
    t,
    respond: autonomousTurns(),
    prompt: 'do the five steps',
    flowerArgs: [
      '--window',
      '100k',
      '--review',
      '0',
      '--max-generations',
      '3',
      '--notify-command',
      `printf '%s|%s\\n' "$FLOWER_PTY_EVENT" "$FLOWER_PTY_DOCUMENT" >> ${notifyLog}`,
    ],
  });
  const second = await f.waitForEvent('done', 240_000, (e) => e.generation === 2);
  t.equal(second.degraded, false);
  // Claude runs the writing turn's Stop hook before it writes that turn's row: the hook is held for the row
  // (the document is taken only once the transcript agrees), so `done` carries the row's reading.
  for (const done of f.events().filter((e) => e.event === 'done'))
    t.equal(
      done.context,
      58_000,
      `generation ${String(done.generation)}'s done carries its writing turn's own reading`,
    );
  t.equal(f.manifest().generations[0]?.context, 58_000, 'and so does the manifest');
  const writing = f.events().filter((e) => e.event === 'writing');
  t.equal(writing.length, 2, 'two cycles, two requests');
  for (const w of writing)
    t.match(
      w,
      { cut: 'turn-end', context: 56_000 },
      `generation ${String(w.generation)}: cut at the crossing turn's end`,
    );
  // How often the Stop hook ran before its turn's last response was in the transcript (the race this fixes).
  const waits = f.events().filter((e) => e.event === 'stop-waited');
  t.comment(
    `Stop hooks that waited for their response: ${waits.length} (${waits.map((w) => `${String(w.ms)} ms${w.landed ? '' : ', never landed'}`).join(', ')})`,
  );
  const asks = f.api.requests.filter((r) => r.isMain && HANDOFF_ASK.test(r.lastUserText));
  t.equal(asks.length, 2);
  for (const ask of asks)
    t.match(ask.lastUserText, /Stop hook feedback/, 'asked through the Stop hook, not typed later');
  const doc = readFileSync(f.documentPath, 'utf8');
  t.match(doc, /CYCLE-2/);
  t.match(
    doc,
    /\[flower-pty facts · written by flower-pty, not by the model\]\n- previous session's transcript[^\n]*\.jsonl/,
    "the Scene says where the predecessor's transcript is",
  );
  await f.run.waitFor(
    () =>
      existsSync(notifyLog) &&
      readFileSync(notifyLog, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('review|')).length >= 2,
    20_000,
    'the notify command ran for each review',
  );
  t.match(
    readFileSync(notifyLog, 'utf8'),
    new RegExp(`^review\\|${f.documentPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'),
    'the document path reached it through the environment',
  );
});

t.test(
  'hooks disabled by a policy: said once, and the handoff is still asked at the idle prompt and frozen',
  async (t) => {
    let asked = 0;
    const respond = (req: MockRequest) => {
      if (!req.isMain) return text('side');
      if (/handoff-request-\d+/.test(req.lastUserText)) {
        asked++;
        return text(handoffDoc('NO-HOOKS'), usageFor(60_000));
      }
      return text('crossed the line', usageFor(55_000));
    };
    const f = await startFlower({
      t,
      respond,
      prompt: 'one turn that crosses',
      flowerArgs: ['--window', '100k', '--review', '0', '--max-generations', '2'],
      prepare: (sandbox) =>
        writeFileSync(
          join(sandbox.configDir, 'settings.json'),
          JSON.stringify({ skipDangerousModePermissionPrompt: true, disableAllHooks: true }),
        ),
    });
    const missing = await f.waitForEvent('hooks-missing', 90_000);
    t.ok(missing, 'noticed');
    const done = await f.waitForEvent('done', 120_000);
    t.equal(done.degraded, false, 'the reply in the transcript was a whole document');
    t.equal(asked, 1, 'asked once, by a typed line naming the request file');
    t.match(readFileSync(f.documentPath, 'utf8'), /NO-HOOKS/);
    t.equal(f.events().filter((e) => e.event === 'hooks-missing').length, 1, 'said once');
    t.match(
      f.events().find((e) => e.event === 'writing'),
      { cut: 'typed' },
    );
  },
);

t.test(
  'a permission wait is told at once (PermissionRequest), and the run goes on when the person approves',
  async (t) => {
    let step = 0;
    const respond = (req: MockRequest) => {
      if (!req.isMain) return text('side');
      step++;
      return step === 1 ? bash('touch approved-file', usageFor(12_000)) : text('touched it', usageFor(13_000));
    };
    const f = await startFlower({
      t,
      respond,
      prompt: 'touch a file',
      flowerArgs: ['--window', '100k'],
      claudeArgs: ['--permission-mode', 'default'],
    });
    await f.run.waitFor(() => f.api.requests.some((r) => r.isMain), 60_000, 'first request');
    const started = Date.now();
    const needs = await f.waitForEvent('needs-permission', 30_000);
    t.match(needs, { tool: 'Bash', what: 'Bash touch approved-file' });
    t.ok(Date.now() - started < 5_000, 'told well before the 6 s permission notification');
    await f.run.waitForScreen(/Do you want to proceed|proceed\?/i, 20_000);
    f.run.pty.write('\r');
    await f.run.waitFor(() => existsSync(join(f.sandbox.projectDir, 'approved-file')), 30_000, 'the approved tool ran');
    await f.run.waitForScreen(/touched it/, 30_000);
  },
);
