// Runs the BUILT flower-pty in a pty under --plain, supervising the scriptable fake claude
// (test/fixtures/fake-claude.mjs) in a throwaway root: fast fault tests without the real claude.
import { mkdirSync, readFileSync, writeFileSync, existsSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { FLOWER_BIN, REPO, workbenchView, type WorkbenchView } from '../helpers/flower-run.js';
import { runClaude, readJsonl, tempRoot, type RunningClaude, type Teardown } from '../helpers/real-claude.js';
import type { Sandbox } from '../../src/mock/claude-sandbox.js';
import { runtimeDir, endServersAtTeardown } from '../helpers/run-servers.js';

export const FAKE_CLAUDE = join(REPO, 'test', 'fixtures', 'fake-claude.mjs');

export interface FakeScript {
  runs?: unknown[];
  default?: unknown;
}

export interface FakeRun extends WorkbenchView {
  run: RunningClaude;
  root: string;
  /** the XDG_RUNTIME_DIR of this run: its socket folder is <runtime>/flower-pty */
  runtime: string;
  project: string;
  workbench: string;
  configDir: string;
  argvPath: string;
  /** another terminal (a pty of this size) running `flower-pty attach <args>` in the project folder, through
   * node; `asPerson`: the bin run as a person runs it (an executable: `attach` goes to the native client) */
  attach(
    args: string[],
    size?: { cols: number; rows: number },
    how?: { asPerson?: boolean; env?: Record<string, string> },
  ): RunningClaude;
  /** every spawn of the fake claude: its argv and pid, in order */
  spawns(): { argv: string[]; pid: number; envKeys: string[] }[];
  /** what that claude's first prompt gave the model: its hook's context (the document), else the positional prompt */
  firstPrompt(spawn: { argv: string[]; pid: number }): Promise<string>;
}

export interface FakeRunOptions {
  t: Teardown;
  script: FakeScript;
  flowerArgs?: string[];
  claudeArgs?: string[];
  prompt?: string;
  /** --step (default work); null: no --step flag at all */
  step?: string | null;
  /** reuse a root (for --continue after a kill) */
  root?: string;
  claude?: string;
  env?: Record<string, string>;
  /** run flower-pty under this umask (through sh, which then execs node) */
  umask?: string;
}

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
  const runtime = runtimeDir(root);
  endServersAtTeardown(opts.t, runtime);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    CLAUDE_CONFIG_DIR: configDir,
    TERM: 'xterm-256color',
    FAKE_CLAUDE_SCRIPT: scriptPath,
    FAKE_CLAUDE_STATE: join(root, 'state'),
    FAKE_CLAUDE_ARGV: argvPath,
    XDG_RUNTIME_DIR: runtime,
    ...opts.env,
  };
  const sandbox: Sandbox = {
    env,
    root,
    configDir,
    home,
    projectDir: project,
    claudeArgs: [],
    transcriptPath: () => '',
  };
  const args = [
    FLOWER_BIN,
    '--plain',
    '--claude',
    opts.claude ?? FAKE_CLAUDE,
    '--workbench',
    workbench,
    '--events',
    eventsPath,
    ...(opts.step === null ? [] : ['--step', step]),
    ...(opts.flowerArgs ?? []),
    ...(opts.prompt !== undefined ? [opts.prompt] : []),
    '--',
    ...(opts.claudeArgs ?? []),
  ];
  const run = opts.umask
    ? runClaude({
        t: opts.t,
        sandbox,
        args: ['-c', `umask ${opts.umask} && exec "$0" "$@"`, process.execPath, ...args],
        bin: '/bin/sh',
        cols: 100,
        rows: 30,
      })
    : runClaude({ t: opts.t, sandbox, args, bin: process.execPath, cols: 100, rows: 30 });
  return {
    run,
    root,
    runtime,
    project,
    workbench,
    configDir,
    argvPath,
    ...workbenchView({ workbench, eventsPath, step, context: async () => `output:\n${run.output().slice(-2000)}` }),
    spawns: () => readJsonl(argvPath) as any,
    async firstPrompt(spawn) {
      const positional = spawn.argv[spawn.argv.indexOf('--') + 1] ?? '';
      // A successor's prompt only names its context: wait for the hook that carries it.
      if (!/context of this message/.test(positional)) return positional;
      for (let i = 0; i < 200; i++) {
        const found = readJsonl(`${argvPath}.context`).find((c) => c.pid === spawn.pid);
        if (found) return String(found.context);
        await new Promise((r) => setTimeout(r, 50));
      }
      return positional;
    },
    attach: (attachArgs, size = { cols: 100, rows: 30 }, how = {}) => {
      const at = how.env ? { ...sandbox, env: { ...sandbox.env, ...how.env } } : sandbox;
      return how.asPerson
        ? runClaude({ t: opts.t, sandbox: at, args: ['attach', ...attachArgs], bin: FLOWER_BIN, ...size })
        : runClaude({
            t: opts.t,
            sandbox: at,
            args: [FLOWER_BIN, 'attach', ...attachArgs],
            bin: process.execPath,
            ...size,
          });
    },
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

// "size": the fake claude prints its pty's size; returns the newest report
export async function claudeSize(r: RunningClaude): Promise<string> {
  const count = () => (r.output().match(/size: \d+x\d+/g) ?? []).length;
  const before = count();
  r.pty.write('size\r');
  await r.waitFor(() => count() > before, 15_000, 'a size report');
  return r
    .output()
    .match(/size: \d+x\d+/g)!
    .at(-1)!;
}
