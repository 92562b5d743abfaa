// Runs the BUILT flower-pty (bin/flower-pty.js → dist) in a real pty, supervising the REAL claude
// against the scripted mock API in a throwaway sandbox. Used by the end-to-end tests.
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  startMockApi,
  text,
  usageFor,
  type MockApi,
  type MockReply,
  type MockRequest,
  type Respond,
} from '../../src/mock/messages-api.js';
import { createClaudeSandbox, type Sandbox, type SandboxLogin } from '../../src/mock/claude-sandbox.js';
import { runClaude, readJsonl, testClaude, type RunningClaude, type Teardown } from './real-claude.js';
import { runtimeDir, endServersAtTeardown } from './run-servers.js';
import { sleep } from './poll.js';
import { tempRoot } from './temp-root.js';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FLOWER_BIN = join(REPO, 'bin', 'flower-pty.js');

export interface FlowerRun extends WorkbenchView {
  api: MockApi;
  sandbox: Sandbox;
  run: RunningClaude;
  /** the XDG_RUNTIME_DIR of this run: its socket folder is <runtime>/flower-pty */
  runtime: string;
  /** another terminal (a pty of this size) running `flower-pty attach <args>` in the project folder */
  attach(args: string[], size?: { cols: number; rows: number }): RunningClaude;
  workbench: string;
  eventsPath: string;
}

export interface FlowerRunOptions {
  t: Teardown & { testdirName?: string };
  respond: Respond;
  flowerArgs?: string[];
  prompt?: string;
  claudeArgs?: string[];
  env?: Record<string, string>;
  /** how claude logs in to the mock (default 'token'; 'oauth' for a subscription's usage-limit behaviour) */
  login?: SandboxLogin;
  step?: string;
  /** run again in the same sandbox, workbench and mock (e.g. for --continue) */
  again?: FlowerRun;
  /** change the sandbox before claude starts (its settings, say) */
  prepare?: (sandbox: Sandbox) => void;
  /** the project folder's name (default `project`); the workbench is then its .flower, as a person's would be */
  projectName?: string;
  /** the split view instead of --plain */
  split?: boolean;
  /** run flower-pty under this umask (through sh, which then execs node) */
  umask?: string;
}

export async function startFlower(opts: FlowerRunOptions): Promise<FlowerRun> {
  let api: MockApi;
  let sandbox: Sandbox;
  if (opts.again) {
    ({ api, sandbox } = opts.again);
  } else {
    api = await startMockApi({ respond: opts.respond });
    opts.t.teardown(() => api.close());
    const root = tempRoot(opts.t, 'flower-e2e-');
    // Each test's runs have their own socket folder: attach and ls see only them.
    sandbox = await createClaudeSandbox({
      root,
      baseUrl: api.url,
      env: { XDG_RUNTIME_DIR: runtimeDir(root), ...opts.env },
      ...(opts.login ? { login: opts.login } : {}),
      ...(opts.projectName !== undefined ? { projectDir: join(root, opts.projectName) } : {}),
    });
    opts.prepare?.(sandbox);
  }
  const runtime = sandbox.env.XDG_RUNTIME_DIR!;
  endServersAtTeardown(opts.t, runtime);
  const workbench = opts.projectName !== undefined ? join(sandbox.projectDir, '.flower') : join(sandbox.root, 'wb');
  const eventsPath = join(sandbox.root, 'events.jsonl');
  const step = opts.step ?? 'work';
  const args = [
    FLOWER_BIN,
    ...(opts.split ? [] : ['--plain']),
    '--claude',
    testClaude(),
    '--workbench',
    workbench,
    '--events',
    eventsPath,
    '--step',
    step,
    ...(opts.flowerArgs ?? []),
    ...(opts.prompt !== undefined ? [opts.prompt] : []),
    '--',
    ...(opts.claudeArgs ?? sandbox.claudeArgs),
  ];
  // runClaude prepends sandbox.claudeArgs: here the program is node running flower-pty.
  const run = opts.umask
    ? runClaude({
        t: opts.t,
        sandbox: { ...sandbox, claudeArgs: [] },
        args: ['-c', `umask ${opts.umask} && exec "$0" "$@"`, process.execPath, ...args],
        bin: '/bin/sh',
        cols: 120,
        rows: 40,
      })
    : runClaude({
        t: opts.t,
        sandbox: { ...sandbox, claudeArgs: [] },
        args,
        bin: process.execPath,
        cols: 120,
        rows: 40,
      });
  return {
    api,
    sandbox,
    run,
    runtime,
    attach: (attachArgs, size = { cols: 120, rows: 40 }) =>
      runClaude({
        t: opts.t,
        sandbox: { ...sandbox, claudeArgs: [] },
        args: [FLOWER_BIN, 'attach', ...attachArgs],
        bin: process.execPath,
        ...size,
      }),
    workbench,
    eventsPath,
    ...workbenchView({
      workbench,
      eventsPath,
      step,
      context: () => run.screenText().then((screen) => `screen:\n${screen}`),
    }),
  };
}

export interface WorkbenchView {
  events(): Record<string, unknown>[];
  waitForEvent(
    name: string,
    ms: number,
    match?: (e: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>>;
  manifest(): Record<string, any>;
  /** the manifest once `ready` holds for it (writes are asynchronous), or the last one read after `ms` */
  manifestWhen(ready: (m: Record<string, any>) => boolean, ms?: number): Promise<Record<string, any>>;
  documentPath: string;
  archived(): string[];
}

// What a test reads of a run's workbench and events file, whatever claude (real or fake) ran in it.
// `context` says what to show beside the events when an expected one never comes.
export function workbenchView(o: {
  workbench: string;
  eventsPath: string;
  step: string;
  context: () => Promise<string>;
}): WorkbenchView {
  const events = () => readJsonl(o.eventsPath);
  const manifestFile = join(o.workbench, 'manifest.json');
  return {
    events,
    async waitForEvent(name, ms, match = () => true) {
      const deadline = performance.now() + ms;
      for (;;) {
        const found = events().find((e) => e.event === name && match(e));
        if (found) return found;
        if (performance.now() > deadline) {
          throw new Error(
            `no "${name}" event within ${ms} ms; events so far:\n${events()
              .map((e) => JSON.stringify(e))
              .join('\n')}\n${await o.context()}`,
          );
        }
        await sleep(50);
      }
    },
    manifest: () => JSON.parse(readFileSync(manifestFile, 'utf8')),
    async manifestWhen(ready, ms = 10_000) {
      const deadline = performance.now() + ms;
      for (;;) {
        let m: Record<string, any> = {};
        try {
          m = JSON.parse(readFileSync(manifestFile, 'utf8'));
        } catch {
          // not written yet
        }
        if (ready(m) || performance.now() > deadline) return m;
        await sleep(50);
      }
    },
    documentPath: join(o.workbench, 'notes', `交接-${o.step}.md`),
    archived() {
      const dir = join(o.workbench, 'notes', 'archive', '交接');
      return existsSync(dir) ? readdirSync(dir).sort() : [];
    },
  };
}

// The handoff request as the model sees it (a Stop-hook or PostToolUse system reminder).
export const HANDOFF_ASK = /Write the handoff document NOW/;
export const TAKING_OVER = /You are TAKING OVER/;

export function handoffDoc(marker: string): string {
  return [
    'Here is the handoff.',
    '## Doing',
    `Counting the files of the toy project (${marker}).`,
    '## Decided',
    'Use plain bash; no new dependencies.',
    '## Dead ends',
    'find -printf was not portable; gave up on it.',
    '## Next',
    `Run the final count and report it (${marker}).`,
    '## Scene',
    'project root, counts.txt',
  ].join('\n');
}

// Answers by session: `first` scripts generation 1's main calls (with their index), successors get a
// plain reply, side calls a short one.
export function bySession(
  first: (req: MockRequest, i: number) => MockReply,
  successor: MockReply = text('successor here, continuing', usageFor(12_000)),
): Respond {
  let firstSession: string | undefined;
  let i = 0;
  return (req: MockRequest): MockReply => {
    if (!req.isMain) return text('side');
    firstSession ??= req.sessionId;
    if (req.sessionId !== firstSession) return successor;
    return first(req, i++);
  };
}
