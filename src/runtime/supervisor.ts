// supervise(): one run, from its options to its exit code. Opens the hook channel and the per-run
// settings, puts the real adapters behind the runtime's ports, and runs the event loop until the
// core says the run is over. It decides nothing: see core/decide/decide.ts.

import { realpathSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { createRun, RUN_DEFAULTS } from '../core/run/run-state.js';
import type { Manifest } from '../core/lineage/manifest.js';
import type { Release } from '../claude-code/release.js';
import { HOOK_CONTEXT_MAX_CHARS, stopBlockCap } from '../claude-code/limits.js';
import { RUN_DIALECT } from '../claude-code/run-dialect.js';
import { openHookChannel, type HookChannel } from '../adapters/hook-channel.js';
import { writeRunSettings, findUserStatusLine, defaultHookCommand, settingsAllowBypass } from '../adapters/run-settings.js';
import { flagsAllowBypass } from '../claude-code/successor-args.js';
import { startRunLoop, type RunLoop } from './run-loop.js';
import { createNotifier } from '../adapters/notify-command.js';
import type { FastRelay } from '../adapters/fast-relay.js';
import { readGitFacts } from '../adapters/git-facts.js';
import { makeRunDir, sweepStaleRunDirs } from '../adapters/run-dir.js';
import { claudeConfigDir } from '../adapters/claude-config-dir.js';
import {
  realChildPort, realDocumentPort, realEventsPort, realLineagePort, realTranscriptPort, terminalAlert, wallClock,
} from './real-ports.js';
import type { Face } from './face.js';

export interface SuperviseOptions {
  claude: string;
  claudeArgs: string[];
  prompt: string | null;
  cwd: string;
  env: Record<string, string | undefined>;
  window?: number;
  headroom?: number;
  maxGenerations?: number;
  handoff: boolean;
  keepAutoCompact: boolean;
  workbench: string | null;
  step: string;
  reviewMs: number;
  writeTimeoutMs: number;
  quietMs: number;
  eventsPath: string | null;
  /** resume a lineage: the manifest and the newest frozen document from the workbench */
  resume: { manifest: Manifest; document: string | null } | null;
  /** the release `claude --version` reported (null: unknown, taken as the newest): what the settings may register */
  release?: Release | null;
  log: (line: string) => void;
  /** aborting ends the run cleanly (SIGTERM, SIGHUP, SIGINT) */
  signal?: AbortSignal;
  /** where bell and desktop notifications go (null: --no-notify or not a terminal) */
  notify: ((sequence: string) => void) | null;
  /** timings of the walk-away checks, for tests (defaults: RUN_DEFAULTS) */
  timings?: Partial<Pick<typeof RUN_DEFAULTS, 'stopWaitMs' | 'earlyExitMs' | 'hooklessAfterMs' | 'turnHooklessAfterMs' | 'parkedRetryMs'>>;
  /** --notify-command: run for each event worth a person's attention (adapters/notify-command.ts); null or absent: none */
  notifyCommand?: string | null;
  /** the run server's native relay for claude's pty (adapters/fast-relay.ts); absent: node-pty's streams */
  relay?: FastRelay | null;
}

export interface SuperviseResult {
  exitCode: number;
  message?: string;
}

export async function supervise(opts: SuperviseOptions, face: Face): Promise<SuperviseResult> {
  const cwdReal = realpathSync(opts.cwd);
  const configDir = claudeConfigDir(opts.env);
  // the folders of runs that were killed before they could remove theirs go first
  await sweepStaleRunDirs();
  const runDir = await makeRunDir();
  const documents = realDocumentPort(opts.workbench, opts.step);
  let channel: HookChannel | null = null;
  let loop: RunLoop | null = null;
  try {
    const state = createRun(
      {
        handoff: opts.handoff,
        keepAutoCompact: opts.keepAutoCompact,
        step: opts.step,
        cwd: cwdReal,
        workbench: opts.workbench,
        documentPath: documents.currentPath,
        eventsPath: opts.eventsPath,
        prompt: opts.prompt,
        policy: {
          ...(opts.window !== undefined ? { window: opts.window } : {}),
          ...(opts.headroom !== undefined ? { headroom: opts.headroom } : {}),
          ...(opts.maxGenerations !== undefined ? { maxGenerations: opts.maxGenerations } : {}),
          env: opts.env,
        },
        reviewMs: opts.reviewMs,
        writeTimeoutMs: opts.writeTimeoutMs,
        quietMs: opts.quietMs,
        ...RUN_DEFAULTS,
        stopBlockCap: stopBlockCap(opts.env),
        hookContextChars: HOOK_CONTEXT_MAX_CHARS,
        dialect: RUN_DIALECT,
        ...opts.timings,
      },
      new Date().toISOString(),
      opts.resume,
    );
    // Hooks and the status line reach the run through a private socket (only when handing off:
    // --no-handoff leaves claude alone).
    let settingsPath: string | null = null;
    let userStatusLine: string | null = null;
    if (opts.handoff) {
      channel = await openHookChannel({ handler: (msg) => loop?.hook(msg.event, msg.payload) ?? '' });
      userStatusLine = await findUserStatusLine({ configDir, cwd: cwdReal });
      settingsPath = await writeRunSettings({ dir: runDir, hookCommand: defaultHookCommand(), statusLine: true, release: opts.release ?? null });
    }
    // chokidar cannot see a file appear in a folder that does not exist yet: make the folder first.
    if (documents.currentPath) await mkdir(dirname(documents.currentPath), { recursive: true });
    const spillDir = opts.workbench ? join(opts.workbench, 'notes') : runDir;
    await mkdir(spillDir, { recursive: true });
    const child = realChildPort({
      claude: opts.claude, claudeArgs: opts.claudeArgs, cwd: opts.cwd, cwdReal, configDir, env: opts.env,
      handoff: opts.handoff, keepAutoCompact: opts.keepAutoCompact, settingsPath,
      channel: channel ? { socketPath: channel.socketPath, token: channel.token } : null, userStatusLine, spillDir, privateDir: runDir,
      recordPrompts: opts.workbench !== null, relay: opts.relay ?? null,
      bypassAllowed: flagsAllowBypass(opts.claudeArgs) || (await settingsAllowBypass({ configDir })),
    });
    // The notify command is told through its environment only, never blocks the run, and is rate-limited.
    const notifier = opts.notifyCommand
      ? createNotifier({ command: opts.notifyCommand, log: (line) => opts.log(`notify-command: ${line}`), env: opts.env, run: `${opts.step} in ${cwdReal}`, cwd: cwdReal })
      : null;
    loop = startRunLoop(
      state,
      {
        child,
        transcript: realTranscriptPort(),
        documents,
        lineage: realLineagePort(opts.workbench, opts.log),
        events: realEventsPort(opts.eventsPath),
        clock: wallClock,
        log: opts.log,
        alert: terminalAlert(opts.notify),
        tell: (event, now) => void notifier?.notify(event, now),
        gitFacts: (folder) => readGitFacts({ cwd: folder ?? opts.cwd, env: opts.env }),
      },
      face,
    );
    const running = loop;
    if (opts.signal?.aborted) running.quit();
    else opts.signal?.addEventListener('abort', () => running.quit(), { once: true });
    const result = await running.done;
    // The last notification (the run ended) gets a moment to leave before the process does.
    await notifier?.drain(3_000);
    return result;
  } finally {
    await channel?.close();
    await rm(runDir, { recursive: true, force: true });
  }
}
