// The newcomer's first ten minutes, for real: a git clone of this repository, the README's set-up
// commands (`npm ci`, then `npm run demo`), and the demo run to completion with the clone's own pinned
// claude. Checks the summary, the frozen document, the successor's first prompt (from its transcript),
// the manifest and the toy task's files.
import t from 'tap';
import { mkdirSync, mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseDocument } from '../src/core/document/handoff-parse.js';
import { transcriptPathFor } from '../src/claude-code/transcript-path.js';
import { DEMO_NEXT } from '../src/demo/demo-model.js';
import { REPO } from './helpers/flower-run.js';
import { readJsonl } from './helpers/real-claude.js';

function sh(command: string, args: string[], cwd: string, timeout: number, tmp?: string) {
  // FLOWER_PTY_CLAUDE unset and PATH without claude: the demo must find the clone's pinned one.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    npm_config_update_notifier: 'false',
    ...(tmp ? { TMPDIR: tmp } : {}),
  };
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', env, input: '', timeout });
  return { code: r.status, out: r.stdout ?? '', err: r.stderr ?? '' };
}

t.test('a fresh clone: npm ci, npm run demo → a full cycle, summary, document, successor', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flower-newcomer-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const clone = join(dir, 'flower-pty');
  const git = sh('git', ['clone', '-q', REPO, clone], dir, 60_000);
  t.equal(git.code, 0, git.err);
  t.notOk(existsSync(join(clone, 'node_modules')), 'the clone starts without node_modules');
  const ci = sh('npm', ['ci', '--no-audit', '--no-fund'], clone, 240_000);
  t.equal(ci.code, 0, ci.err);
  t.ok(existsSync(join(clone, 'node_modules', '.bin', 'claude')), 'npm ci brought the pinned claude');

  // the demo's throwaway folder under this test's, so nothing is left in the temp folder
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  const demo = sh('npm', ['run', 'demo'], clone, 240_000, tmp);
  t.equal(demo.code, 0, `npm run demo exits 0\n${demo.err.slice(-2000)}`);
  const out = demo.out;
  t.match(
    out,
    /flower-pty demo: real claude \(.*\/node_modules\/\.bin\/claude\) against a scripted model on 127\.0\.0\.1$/m,
    "the clone's pinned claude, a loopback mock",
  );
  t.match(out, /flower-pty demo: a full handoff cycle in \d+s\./);
  t.match(
    out,
    /generations: 2\n\s+1\. session [0-9a-f-]{36} · peak context 56000 · ended: handoff\n\s+2\. session [0-9a-f-]{36} · peak context 10000 · ended: quit/,
  );
  t.match(
    out,
    /run it for real: install it \(the README's "Use it"\), then cd your-project && flower-pty "your task"/,
    'a clone has no flower-pty on the PATH',
  );
  t.match(out, /^ {4}npx flower-pty status --workbench \S+$/m, 'the lineage, as it runs from the clone');
  const root = /folder \(left for inspection\): (\S+)/.exec(out)?.[1] ?? '';
  t.match(root, new RegExp(`^${tmp}/flower-pty-demo-`), 'the folder is under the temp dir');
  const project = join(root, 'project');
  const documentPath = join(project, '.flower', 'notes', '交接-work.md');
  t.match(
    out,
    new RegExp(`documents written:\\n\\s+${documentPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    'the summary names the frozen document',
  );

  const doc = readFileSync(documentPath, 'utf8');
  const parsed = parseDocument(doc);
  t.same(parsed.missing, [], 'the frozen document is complete');
  t.equal(parsed.doc.next.trim(), DEMO_NEXT);
  t.match(parsed.doc.deadends, /wc -w/, 'dead ends kept');

  const events = readJsonl(join(root, 'events.jsonl')) as Array<Record<string, unknown>>;
  t.match(
    events.find((e) => e.event === 'writing'),
    { generation: 1, cut: 'tool-boundary', context: 54_000, at: 50_000 },
    'the request went in at a tool boundary past the line',
  );
  t.match(
    events.find((e) => e.event === 'done'),
    { generation: 1, degraded: false, path: documentPath },
  );
  const second = events.find((e) => e.event === 'generation-start' && e.generation === 2);
  t.match(second, { successor: true });

  const manifest = JSON.parse(readFileSync(join(project, '.flower', 'manifest.json'), 'utf8'));
  t.equal(manifest.generations.length, 2);
  t.same(manifest.retired, [manifest.generations[0].session_id]);
  t.equal(manifest.session_id, second?.session_id);

  // The successor's first prompt, as claude recorded it: it is taking over, with the document in it.
  const transcript = readJsonl(transcriptPathFor(join(root, 'config'), project, String(second?.session_id))) as Array<
    Record<string, any>
  >;
  const firstUser = transcript.find((r) => r.type === 'user' && typeof r.message?.content === 'string');
  t.match(firstUser?.message.content, /^You are TAKING OVER/);
  // The positional prompt only names its context: the document came as the first prompt's hook context.
  t.ok(
    JSON.stringify(transcript.filter((r) => r.type !== 'assistant')).includes(JSON.stringify(DEMO_NEXT).slice(1, -1)),
    "the successor's first prompt carries the document's Next",
  );
  t.match(out, /the successor started from the document and did its Next: "Append the count of toy\/letters\.txt/);
  t.match(
    readFileSync(join(project, 'report.txt'), 'utf8'),
    /^\s*6 toy\/letters\.txt$/m,
    'the successor really did the Next (real Bash)',
  );
  t.ok(
    existsSync(join(root, 'home')) && !existsSync(join(root, 'home', '.claude', 'projects')),
    'claude used the throwaway CLAUDE_CONFIG_DIR, not $HOME/.claude',
  );
});
