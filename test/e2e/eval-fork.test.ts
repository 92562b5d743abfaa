// `eval fork` on the REAL claude (the pinned release) against the mock API, in a sandbox (CLAUDE_CONFIG_DIR,
// never ~/.claude): a session made in print mode writes a file and is told never to touch another; it is
// forked with --resume --fork-session -p, once for /compact (the mock's summary leaves the file out) and once
// for the handoff request (the mock's document names it); the seeded sessions answer from their documents;
// the handoff arm passes recall, the /compact arm does not, each with the tokens its JSON results gave; and a
// successor seeded with each document goes on with the work, scripted: given the handoff it reads the file
// its document named and edits it, given the summary it searches first; the hook eval fork gives it stops it
// at the edit, before it is made, and each arm's rediscovery cost is read off the successor's own transcript.
import t from 'tap';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { startMockApi, text, usageFor, type MockReply, type MockRequest } from '../../src/mock/messages-api.js';
import { createClaudeSandbox, resolveRepoClaude } from '../../src/mock/claude-sandbox.js';
import { runEvalFork } from '../../src/commands/eval-fork.js';
import { HANDOFF_ASK } from '../helpers/flower-run.js';

const COMPACT_ASK = /CRITICAL: Respond with TEXT ONLY/;
const PROBE_ASK = /You are taking over a piece of work from a previous session/;
const GO_ON = /A previous session left you this document and nothing else/;
const FILE = 'lexer-h38.ts';

t.test('the real claude forks a session for both arms; the answers are scored by rule', async (t) => {
  let cwd = '';
  let step = 0;
  const successorSteps = new Map<string, number>();
  const respond = (req: MockRequest): MockReply => {
    if (!req.isMain) return text('side');
    if (GO_ON.test(req.allText)) {
      // The seeded successor, one scripted step per request of its session.
      const key = req.sessionId ?? 'none';
      const i = successorSteps.get(key) ?? 0;
      successorSteps.set(key, i + 1);
      const named =
        req.allText.includes(`<document>`) && /<document>[\s\S]*lexer-h38\.ts[\s\S]*<\/document>/.test(req.allText);
      const plan: MockReply[] = [
        ...(named
          ? []
          : [{ kind: 'tool', name: 'Glob', input: { pattern: '*.ts' }, usage: usageFor(4_000) } as MockReply]),
        { kind: 'tool', name: 'Read', input: { file_path: join(cwd, FILE) }, usage: usageFor(5_000) },
        {
          kind: 'tool',
          name: 'Edit',
          input: { file_path: join(cwd, FILE), old_string: 'export {};', new_string: 'export const lexed = 1;' },
          usage: usageFor(6_000),
        },
      ];
      return plan[i] ?? text('went on after the edit', usageFor(7_000));
    }
    if (COMPACT_ASK.test(req.lastUserText))
      return text('<summary>The person asked for a lexer; work went on.</summary>', usageFor(3_000));
    if (HANDOFF_ASK.test(req.lastUserText))
      return text(
        `## Doing\nWriting ${FILE}.\n## Decided\nNever touch the grammar file.\n## Dead ends\nnone\n## Next\nTest it.\n## Scene\n${FILE}`,
        usageFor(3_000),
      );
    const probe = PROBE_ASK.exec(req.lastUserText);
    if (probe) {
      // The scripted successor answers every question with its document, flattened.
      const doc = /<document>\n([\s\S]*?)\n<\/document>/.exec(req.lastUserText)?.[1] ?? '';
      const count = (req.lastUserText.match(/^\d+\. /gm) ?? []).length;
      return text(
        Array.from({ length: count }, (_, i) => `${i + 1}. ${doc.replace(/\n/g, ' ')}`).join('\n'),
        usageFor(2_000),
      );
    }
    return step++ === 0
      ? {
          kind: 'tool',
          name: 'Write',
          input: { file_path: join(cwd, FILE), content: 'export {};\n' },
          usage: usageFor(1_000),
        }
      : text('written', usageFor(1_500));
  };
  const api = await startMockApi({ respond });
  t.teardown(() => api.close());
  const sandbox = await createClaudeSandbox({ root: t.testdir(), baseUrl: api.url });
  cwd = sandbox.projectDir;
  const claude = resolveRepoClaude();
  const session = randomUUID();
  // The person's session, made in print mode (no stdin: a piped one is read as more prompt).
  const made = await new Promise<number | null>((resolve) => {
    const c = spawn(
      claude,
      ['-p', 'Write the lexer. Never touch the grammar file.', '--session-id', session, ...sandbox.claudeArgs],
      { cwd, env: sandbox.env as NodeJS.ProcessEnv, stdio: ['ignore', 'ignore', 'ignore'] },
    );
    c.on('close', resolve);
  });
  t.equal(made, 0, 'the session to fork exists');

  const out: string[] = [];
  const code = await runEvalFork({
    session,
    at: [],
    k: 1,
    dryRun: false,
    claude,
    cwd,
    env: sandbox.env as NodeJS.ProcessEnv,
    out: (l) => out.push(l),
    err: (l) => out.push(l),
    callTimeoutMs: 120_000,
  });
  const said = out.join('\n');
  t.equal(code, 0, said);
  t.match(said, /^2 of 2 runs$/m);
  const forks = api.requests.filter(
    (r) => r.isMain && (COMPACT_ASK.test(r.lastUserText) || HANDOFF_ASK.test(r.lastUserText)),
  );
  t.ok(
    forks.every((r) => r.sessionId !== session),
    'each arm ran in a fork, never in the session itself',
  );
  t.ok(
    forks.some((r) => r.allText.includes('Write the lexer')),
    "a fork carries the session's history",
  );
  const compact = said.slice(said.indexOf("Claude Code's /compact"), said.indexOf("flower-pty's handoff request"));
  const handoff = said.slice(said.indexOf("flower-pty's handoff request"));
  t.match(handoff, /recall +1\/1/, 'the handoff arm recalls the file');
  t.match(compact, /recall +0\/1/, "the /compact arm's summary left it out");
  t.match(handoff, /constraints +1\/1/);
  t.match(compact, /spent +[1-9]\d* tokens · \$0\.\d+ · /, "the /compact arm's spend, from its JSON results");
  // The successors: the handoff's read the file its document named, then edited; the summary's searched first.
  t.match(
    handoff,
    /rediscovery +1 tool calls · [\d.]+K input tokens before its first change · 1 file\(s\) the document named read again \(mean of 1; 1 reached a change\)/,
  );
  t.match(
    compact,
    /rediscovery +2 tool calls · [\d.]+K input tokens before its first change · 0 file\(s\) the document named read again \(mean of 1; 1 reached a change\)/,
  );
  const tokens = (arm: string): number => Number(/rediscovery .*? · ([\d.]+)K input tokens/.exec(arm)?.[1] ?? 'NaN');
  t.ok(
    tokens(compact) > tokens(handoff),
    `the summary's successor read more before its change (${tokens(compact)}K against ${tokens(handoff)}K)`,
  );
  // Each successor's session asked for its steps up to the edit and never again: the call after the edit
  // (its result, or a denial) would have been one more request of that session.
  t.same([...successorSteps.values()].sort(), [2, 3], 'the hook stopped each successor at its edit, before it ran');
  t.equal(readFileSync(join(cwd, FILE), 'utf8'), 'export {};\n', 'and the file is as the session left it');
});
