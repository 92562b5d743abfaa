// Runs the BUILT flower-pty in a pty under --plain, supervising the scriptable fake claude
// (test/fixtures/fake-claude.mjs) in a throwaway root: fast fault tests without the real claude.
import { mkdirSync, readFileSync, writeFileSync, existsSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { FLOWER_BIN, REPO } from '../helpers/flower-run.js';
import { runClaude, readJsonl, tempRoot, type RunningClaude, type Teardown } from '../helpers/real-claude.js';
import type { Sandbox } from '../../src/mock/claude-sandbox.js';

export const FAKE_CLAUDE = join(REPO, 'test', 'fixtures', 'fake-claude.mjs');

export interface FakeScript {
  runs?: unknown[];
  default?: unknown;
}

export interface FakeRun {
  run: RunningClaude;
  root: string;
  project: string;
  workbench: string;
  configDir: string;
  argvPath: string;
  events(): Record<string, unknown>[];
  waitForEvent(name: string, ms: number, match?: (e: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  manifest(): Record<string, any>;
  /** the manifest once `ready` holds for it (writes are asynchronous), or the last one read after `ms` */
  manifestWhen(ready: (m: Record<string, any>) => boolean, ms?: number): Promise<Record<string, any>>;
  documentPath: string;
  archived(): string[];
  /** every spawn of the fake claude: its argv and pid, in order */
  spawns(): { argv: string[]; pid: number; envKeys: string[] }[];
}

export interface FakeRunOptions {
  t: Teardown;
  script: FakeScript;
  flowerArgs?: string[];
  claudeArgs?: string[];
  prompt?: string;
  step?: string;
  /** reuse a root (for --continue after a kill) */
  root?: string;
  claude?: string;
  env?: Record<string, string>;
  /** run flower-pty under this umask (through sh, which then execs node) */
  umask?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function startFake(opts: FakeRunOptions): FakeRun {
  const root = opts.root ?? realpathSync(tempRoot(opts.t, 'flower-fault-'));
  const project = join(root, 'project');
  const configDir = join(root, 'config');
  const home = join(root, 'home');
  for (const dir of [project, configDir, home]) mkdirSync(dir, { recursive: true });
  const scriptPath = join(root, 'script.json');
  writeFileSync(scriptPath, JSON.stringify(opts.script));
  const workbench = join(root, 'wb');
  const eventsPath = join(root, 'events.jsonl');
  const argvPath = join(root, 'argv.jsonl');
  const step = opts.step ?? 'work';
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    CLAUDE_CONFIG_DIR: configDir,
    TERM: 'xterm-256color',
    FAKE_CLAUDE_SCRIPT: scriptPath,
    FAKE_CLAUDE_STATE: join(root, 'state'),
    FAKE_CLAUDE_ARGV: argvPath,
    ...opts.env,
  };
  const sandbox: Sandbox = {
    env, root, configDir, home, projectDir: project, claudeArgs: [],
    transcriptPath: () => '',
  };
  const args = [
    FLOWER_BIN, '--plain', '--claude', opts.claude ?? FAKE_CLAUDE, '--workbench', workbench, '--events', eventsPath,
    '--step', step, ...(opts.flowerArgs ?? []), ...(opts.prompt !== undefined ? [opts.prompt] : []), '--', ...(opts.claudeArgs ?? []),
  ];
  const run = opts.umask
    ? runClaude({ t: opts.t, sandbox, args: ['-c', `umask ${opts.umask} && exec "$0" "$@"`, process.execPath, ...args], bin: '/bin/sh', cols: 100, rows: 30 })
    : runClaude({ t: opts.t, sandbox, args, bin: process.execPath, cols: 100, rows: 30 });
  const events = () => readJsonl(eventsPath);
  return {
    run, root, project, workbench, configDir, argvPath, events,
    async waitForEvent(name, ms, match = () => true) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = events().find((e) => e.event === name && match(e));
        if (found) return found;
        if (Date.now() > deadline) {
          throw new Error(`no "${name}" event within ${ms} ms; events:\n${events().map((e) => JSON.stringify(e)).join('\n')}\noutput:\n${run.output().slice(-2000)}`);
        }
        await sleep(50);
      }
    },
    manifest: () => JSON.parse(readFileSync(join(workbench, 'manifest.json'), 'utf8')),
    async manifestWhen(ready, ms = 10_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        let m: Record<string, any> = {};
        try {
          m = JSON.parse(readFileSync(join(workbench, 'manifest.json'), 'utf8'));
        } catch {
          // not written yet
        }
        if (ready(m) || Date.now() > deadline) return m;
        await sleep(50);
      }
    },
    documentPath: join(workbench, 'notes', `交接-${step}.md`),
    archived() {
      const dir = join(workbench, 'notes', 'archive', '交接');
      return existsSync(dir) ? readdirSync(dir).sort() : [];
    },
    spawns: () => readJsonl(argvPath) as any,
  };
}

/** a valid handoff document carrying `marker` */
export function fakeDoc(marker: string): string {
  return `## Doing\nFake task ${marker}.\n## Decided\nKeep it simple.\n## Next\nContinue ${marker}.\n`;
}

/** true while a process with this pid exists (zombies count as gone) */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z /.test(stat);
  } catch {
    return false;
  }
}

/** every file under `dir`, recursively, relative paths */
export function walk(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name), join(prefix, e.name)) : [join(prefix, e.name)],
  );
}
