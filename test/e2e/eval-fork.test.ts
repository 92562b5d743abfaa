// `eval fork` on the REAL claude (the pinned release) against the mock API, in a sandbox (CLAUDE_CONFIG_DIR,
// never ~/.claude): a session made in print mode writes a file and is told never to touch another; it is
// forked with --resume --fork-session -p, once for /compact (the mock's summary leaves the file out) and once
// for the handoff request (the mock's document names it); the seeded sessions answer from their documents;
// the handoff arm passes recall, the /compact arm does not, each with the tokens its JSON results gave.
import t from 'tap';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { startMockApi, text, usageFor, type MockReply, type MockRequest } from '../../src/mock/messages-api.js';
import { createClaudeSandbox, resolveRepoClaude } from '../../src/mock/claude-sandbox.js';
import { runEvalFork } from '../../src/commands/eval-fork.js';
import { HANDOFF_ASK } from '../helpers/flower-run.js';

const COMPACT_ASK = /CRITICAL: Respond with TEXT ONLY/;
const PROBE_ASK = /You are taking over a piece of work from a previous session/;
const FILE = 'lexer-h38.ts';

t.test('the real claude forks a session for both arms; the answers are scored by rule', async (t) => {
  let cwd = '';
  let step = 0;
  const respond = (req: MockRequest): MockReply => {
    if (!req.isMain) return text('side');
    if (COMPACT_ASK.test(req.lastUserText)) return text('<summary>The person asked for a lexer; work went on.</summary>', usageFor(3_000));
    if (HANDOFF_ASK.test(req.lastUserText)) return text(`## Doing\nWriting ${FILE}.\n## Decided\nNever touch the grammar file.\n## Dead ends\nnone\n## Next\nTest it.\n## Scene\n${FILE}`, usageFor(3_000));
    const probe = PROBE_ASK.exec(req.lastUserText);
    if (probe) {
      // The scripted successor answers every question with its document, flattened.
      const doc = /<document>\n([\s\S]*?)\n<\/document>/.exec(req.lastUserText)?.[1] ?? '';
      const count = (req.lastUserText.match(/^\d+\. /gm) ?? []).length;
      return text(Array.from({ length: count }, (_, i) => `${i + 1}. ${doc.replace(/\n/g, ' ')}`).join('\n'), usageFor(2_000));
    }
    return step++ === 0 ? { kind: 'tool', name: 'Write', input: { file_path: join(cwd, FILE), content: 'export {};\n' }, usage: usageFor(1_000) } : text('written', usageFor(1_500));
  };
  const api = await startMockApi({ respond });
  t.teardown(() => api.close());
  const sandbox = await createClaudeSandbox({ root: t.testdir(), baseUrl: api.url });
  cwd = sandbox.projectDir;
  const claude = resolveRepoClaude();
  const session = randomUUID();
  // The person's session, made in print mode (no stdin: a piped one is read as more prompt).
  const made = await new Promise<number | null>((resolve) => {
    const c = spawn(claude, ['-p', 'Write the lexer. Never touch the grammar file.', '--session-id', session, ...sandbox.claudeArgs], { cwd, env: sandbox.env as NodeJS.ProcessEnv, stdio: ['ignore', 'ignore', 'ignore'] });
    c.on('close', resolve);
  });
  t.equal(made, 0, 'the session to fork exists');

  const out: string[] = [];
  const code = await runEvalFork({ session, at: [], k: 1, dryRun: false, claude, cwd, env: sandbox.env as NodeJS.ProcessEnv, out: (l) => out.push(l), err: (l) => out.push(l), callTimeoutMs: 120_000 });
  const said = out.join('\n');
  t.equal(code, 0, said);
  t.match(said, /^2 of 2 runs$/m);
  const forks = api.requests.filter((r) => r.isMain && (COMPACT_ASK.test(r.lastUserText) || HANDOFF_ASK.test(r.lastUserText)));
  t.ok(forks.every((r) => r.sessionId !== session), 'each arm ran in a fork, never in the session itself');
  t.ok(forks.some((r) => r.allText.includes('Write the lexer')), "a fork carries the session's history");
  const compact = said.slice(said.indexOf("Claude Code's /compact"), said.indexOf("flower-pty's handoff request"));
  const handoff = said.slice(said.indexOf("flower-pty's handoff request"));
  t.match(handoff, /recall +1\/1/, 'the handoff arm recalls the file');
  t.match(compact, /recall +0\/1/, "the /compact arm's summary left it out");
  t.match(handoff, /constraints +1\/1/);
  t.match(compact, /spent +[1-9]\d* tokens · \$0\.\d+ · /, "the /compact arm's spend, from its JSON results");
});
