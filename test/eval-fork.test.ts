// `flower-pty eval fork` with a fake claude (test/fixtures/eval-fork/fake-claude.mjs), for speed and faults:
// both arms scripted (a /compact summary that keeps nothing, a handoff that keeps the file, the failure and
// the person's instruction), the probes scored by rule with Wilson intervals, tokens, cost and time per arm;
// --dry-run runs nothing; a missing session, a claude without --fork-session, a refused fork and an
// interrupted eval each get one line, and what finished is kept and said.
import t from 'tap';
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { runEvalFork } from '../src/commands/eval-fork.js';
import { wilson95 } from '../src/core/eval/wilson.js';
import { splitAnswers } from '../src/core/eval/probe-questions.js';
import { REPO } from './helpers/flower-run.js';
import { tempRoot } from './helpers/temp-root.js';

const FAKE = join(REPO, 'test', 'fixtures', 'eval-fork', 'fake-claude.mjs');
const SESSION = '11111111-2222-4333-8444-555555555555';

let n = 0;
function call(name: string, input: object, ok: boolean, result: string): object[] {
  const id = `tu${++n}`;
  return [
    {
      type: 'assistant',
      isSidechain: false,
      sessionId: SESSION,
      message: { id: `m${n}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    },
    {
      type: 'user',
      isSidechain: false,
      sessionId: SESSION,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, is_error: !ok, content: result }] },
      toolUseResult: ok ? {} : `Error: ${result}`,
    },
  ];
}

function world(): { root: string; env: NodeJS.ProcessEnv; transcript: string; project: string } {
  const root = tempRoot(t, 'eval-fork-');
  const project = join(root, 'project');
  mkdirSync(project);
  const folder = join(root, 'config', 'projects', '-project');
  mkdirSync(folder, { recursive: true });
  const rows = [
    {
      type: 'user',
      isSidechain: false,
      sessionId: SESSION,
      cwd: project,
      message: { role: 'user', content: 'Fix the parser. Never edit the generated lexer file.' },
    },
    ...call('Edit', { file_path: join(project, 'src/parser.ts'), old_string: 'a', new_string: 'b' }, true, 'ok'),
    ...call('Bash', { command: 'npm run build-grammar' }, false, 'Exit code 1\nmissing script: build-grammar'),
  ];
  const transcript = join(folder, `${SESSION}.jsonl`);
  writeFileSync(transcript, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    CLAUDE_CONFIG_DIR: join(root, 'config'),
    FAKE_HANDOFF_DOC:
      '## Doing\nFixing src/parser.ts.\n## Dead ends\n`npm run build-grammar` failed: no such script.\n## Decided\nNever edit the generated lexer file.\n## Next\nTest it.\n## Scene\nsrc/',
    FAKE_COMPACT_SUMMARY: 'the work went on',
  };
  return { root, env, transcript, project };
}

async function evalFork(w: ReturnType<typeof world>, over: Partial<Parameters<typeof runEvalFork>[0]> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  let code: number | null = null;
  let error: Error | null = null;
  try {
    code = await runEvalFork({
      session: SESSION,
      at: [],
      k: 2,
      dryRun: false,
      claude: FAKE,
      cwd: w.project,
      env: w.env,
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      ...over,
    });
  } catch (e) {
    error = e as Error;
  }
  return { code, out: out.join('\n'), err: err.join('\n'), error };
}

t.test('both arms scripted: the handoff keeps what /compact dropped, by rule, with intervals and spend', async (t) => {
  const w = world();
  const r = await evalFork(w);
  t.equal(r.error, null, String(r.error));
  t.equal(r.code, 0);
  t.match(r.out, /^4 of 4 runs$/m);
  const handoff = r.out.slice(r.out.indexOf("flower-pty's handoff request"));
  const compact = r.out.slice(r.out.indexOf("Claude Code's /compact"), r.out.indexOf("flower-pty's handoff request"));
  t.match(
    handoff,
    /probes passed +100 % \(61–100 %\)/,
    'every probe of the handoff arm passed: 6 of 6, with its Wilson interval',
  );
  t.match(handoff, /recall +2\/2/);
  t.match(handoff, /artifact +2\/2/);
  t.match(handoff, /constraints +2\/2/);
  t.match(compact, /probes passed +0 % \(0–39 %\)/, 'the summary kept none of them');
  t.match(handoff, /coverage +files 2\/2 · dead_ends 2\/2 · instructions 2\/2/);
  t.match(
    compact,
    /spent +10200 tokens · \$0\.0600 · 7\.2 s/,
    'two forks, two seeded sessions and two successors, from their JSON results',
  );
  // The successors' rediscovery cost: the compact arm's searched first (Grep, Glob, Read: 3 calls; requests of
  // 1.5K, 3K, 4.5K and 6K input tokens up to its Edit), the handoff arm's read the file its document named.
  t.match(
    compact,
    /rediscovery +3 tool calls · 15\.0K input tokens before its first change · 0 file\(s\) the document named read again \(mean of 2; 2 reached a change\)/,
  );
  t.match(
    handoff,
    /rediscovery +1 tool calls · 4\.5K input tokens before its first change · 1 file\(s\) the document named read again \(mean of 2; 2 reached a change\)/,
  );
  const left = readdirSync(join(w.root, 'config', 'projects', '-project'));
  t.ok(left.includes(`${SESSION}.jsonl`), "the person's own transcript is still there");
  t.equal(readFileSync(w.transcript, 'utf8').split('\n').length, 6, 'and untouched');
});

t.test('a cut before the end forks a copy up to that line, removed after; the facts are those before it', async (t) => {
  const w = world();
  const log = join(w.root, 'calls.log');
  const r = await evalFork(w, { at: [3], k: 1, env: { ...w.env, FAKE_LOG: log } });
  t.equal(r.code, 0, r.err);
  const forks = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as string[])
    .filter((a) => a.includes('--fork-session'));
  t.equal(forks.length, 2);
  t.not(forks[0]![1], SESSION, 'a copy is forked, not the session');
  t.notOk(existsSync(join(w.root, 'config', 'projects', '-project', `${forks[0]![1]}.jsonl`)), 'and removed after');
  t.notMatch(r.out, /artifact/, 'the failure comes after line 3: no artifact probe at that cut');
});

t.test('--dry-run prints the calls and a token estimate, and runs nothing', async (t) => {
  const w = world();
  const log = join(w.root, 'calls.log');
  const r = await evalFork(w, { dryRun: true, at: [3, 5], env: { ...w.env, FAKE_LOG: log } });
  t.equal(r.code, 0);
  t.match(r.out, /cut at line 3 \(a copy of the transcript up to it is forked\): 2 probe\(s\)/);
  t.match(r.out, /2 × compact: claude --resume <id> --fork-session -p \/compact --output-format json/);
  t.match(r.out, /^24 claude calls, about \d+ tokens; nothing was run$/m);
  t.match(r.out, /2 × handoff successor: claude -p <the document, go on> .*--settings/);
  t.same(readFileSync(log, 'utf8').trim().split('\n'), ['["--help"]'], 'only --help was asked');
});

t.test("the context at a cut is Claude Code's own reading, not the transcript's bytes", async (t) => {
  const w = world();
  // A large tool result, then the response Claude Code recorded usage on: 142K in context, 1.2 MB of bytes.
  const rows = [
    ...call('Read', { file_path: join(w.project, 'big.txt') }, true, 'x'.repeat(1_200_000)),
    {
      type: 'assistant',
      isSidechain: false,
      sessionId: SESSION,
      message: {
        id: 'm-usage',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'read it' }],
        usage: {
          input_tokens: 1_000,
          cache_creation_input_tokens: 1_000,
          cache_read_input_tokens: 140_000,
          output_tokens: 50,
        },
      },
    },
  ];
  writeFileSync(w.transcript, readFileSync(w.transcript, 'utf8') + rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const dry = await evalFork(w, { dryRun: true });
  t.match(
    dry.out,
    /cut at line 8 \(the end\): \d probe\(s\), 142\.0K tokens of context/,
    "the last response's input and cache tokens",
  );
  t.notMatch(dry.out, /[3-9]\d\d\.\dK tokens of context/, 'not bytes/4');
  const log = join(w.root, 'calls.log');
  const r = await evalFork(w, { k: 1, env: { ...w.env, FAKE_LOG: log } });
  t.equal(r.code, 0, r.err);
  const handoff = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as string[])
    .find((a) => a.includes('--fork-session') && !a.includes('/compact'));
  t.match(handoff?.join(' '), /142\.0K of 200\.0K tokens used/, 'the handoff request says the same');
});

t.test(
  "the session's own folder is said; a folder not on this machine is refused in one line, nothing run",
  async (t) => {
    const w = world();
    const dry = await evalFork(w, { dryRun: true });
    t.match(
      dry.out,
      new RegExp(`in the session's own folder ${w.project.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'),
    );
    const gone = join(w.root, 'elsewhere', 'repo');
    writeFileSync(w.transcript, readFileSync(w.transcript, 'utf8').split(w.project).join(gone));
    const log = join(w.root, 'calls.log');
    const r = await evalFork(w, { env: { ...w.env, FAKE_LOG: log } });
    t.match(
      r.error?.message,
      new RegExp(
        `^eval fork: the session ran in ${gone.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, which is not on this machine: run eval fork where that folder exists`,
      ),
    );
    t.notMatch(r.error?.message ?? '', /\n/, 'one line');
    t.notOk(existsSync(log), 'no claude was run, not even in the current folder');
  },
);

t.test('bad input: one line each', async (t) => {
  const w = world();
  let r = await evalFork(w, { session: '99999999-2222-4333-8444-555555555555' });
  t.match(
    r.error?.message,
    /^eval fork: no session 99999999-2222-4333-8444-555555555555 in .*projects: claude --resume lists the sessions there$/,
  );
  r = await evalFork(w, { session: 'not-a-uuid' });
  t.match(r.error?.message, /is not a session id/);
  r = await evalFork(w, { env: { ...w.env, FAKE_NO_FORK: '1' } });
  t.match(
    r.error?.message,
    /^eval fork: .*fake-claude\.mjs has no --fork-session in its --help \(an older Claude Code\): update it, or name another with --claude$/,
  );
  r = await evalFork(w, { env: { ...w.env, FAKE_REFUSE: '1' } });
  t.match(
    r.error?.message,
    /^eval fork: claude refused the fork of 1111.*: No conversation found with session ID: 1111/,
  );
  t.match(r.out, /^0 of 4 runs$/m, 'what finished (nothing) is said');
  r = await evalFork(w, { at: [99] });
  t.match(r.error?.message, /--at 99 is past the transcript's last line \(5\)/);
  r = await evalFork(w, { k: 0 });
  t.match(r.error?.message, /-k expects a whole number of runs from 1 to 20, got 0/);
});

t.test('interrupted: the runs that finished are kept and said', async (t) => {
  const w = world();
  const stop = new AbortController();
  const log = join(w.root, 'calls.log');
  const pending = evalFork(w, { k: 3, signal: stop.signal, env: { ...w.env, FAKE_SLOW_MS: '300', FAKE_LOG: log } });
  // Stop once the first run of both arms is in (6 calls: two forks, two seeded sessions, two successors) and the next began.
  for (let i = 0; i < 200; i++) {
    await new Promise((r) => setTimeout(r, 50));
    if (existsSync(log) && readFileSync(log, 'utf8').trim().split('\n').length >= 8) break;
  }
  stop.abort();
  const r = await pending;
  t.equal(r.code, 130);
  t.match(r.out, /^2 of 6 runs \(interrupted\)$/m);
  t.match(r.err, /^eval fork: interrupted: 2 of 6 runs finished, their figures above$/);
});

t.test('Wilson intervals and the answers split by number', async (t) => {
  t.match(wilson95(0, 0), { n: 0, low: 0, high: 1 });
  const r = wilson95(3, 3);
  t.ok(r.low > 0.43 && r.low < 0.45 && r.high === 1, '3 of 3 is 44–100 %');
  const half = wilson95(5, 10);
  t.ok(Math.abs(half.low - 0.2366) < 0.001 && Math.abs(half.high - 0.7634) < 0.001, '5 of 10: 24–76 %');
  t.same(splitAnswers('1. a\nmore\n**2.** b\n7. c', 3), ['a\nmore', 'b\n7. c', '']);
});
