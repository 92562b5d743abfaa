// supervise(): one run, from its options to its exit code. Opens the hook channel and the per-run
// settings, puts the real adapters behind the runtime's ports, and runs the event loop until the
// core says the run is over. It decides nothing: see core/decide/decide.ts.

import { scoreAgainstTranscript } from '../adapters/transcript-coverage.js';
import { realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { createRun } from '../core/run/run-state.js';
import { settingsFromOptions } from '../core/run/settings-from-options.js';
import type { RunOptionValues } from '../core/options/options-table.js';
import type { Tunables } from '../core/options/tunables.js';
import type { Manifest } from '../core/lineage/manifest.js';
import type { Release } from '../claude-code/release.js';
import { HOOK_CONTEXT_MAX_CHARS, stopBlockCap } from '../claude-code/limits.js';
import { RUN_DIALECT } from '../claude-code/run-dialect.js';
import { openHookChannel, type HookChannel } from '../adapters/hook-channel.js';
import {
  writeRunSettings,
  findUserStatusLine,
  defaultHookCommand,
  settingsDefaultMode,
} from '../adapters/run-settings.js';
import { BYPASS_MODE, flagsAllowBypass } from '../claude-code/successor-args.js';
import { launchModeOf } from '../claude-code/permission-modes.js';
import { startRunLoop, type RunLoop } from './run-loop.js';
import { createNotifier } from '../adapters/notify-command.js';
import type { FastRelay } from '../adapters/fast-relay.js';
import type { ClaudeKeys } from './claude-keys.js';
import { readGitFacts } from '../adapters/git-facts.js';
import { makeRunDir, sweepStaleRunDirs } from '../adapters/run-dir.js';
import { makePrivateDir, STATE_DIR } from '../adapters/private-dir.js';
import { claudeConfigDir } from '../adapters/claude-config-dir.js';
import {
  realChildPort,
  realDocumentPort,
  realEventsPort,
  realLineagePort,
  realTranscriptPort,
  terminalAlert,
  wallClock,
} from './real-ports.js';
import type { Face } from './face.js';

export interface SuperviseOptions {
  claude: string;
  claudeArgs: string[];
  prompt: string | null;
  cwd: string;
  env: Record<string, string | undefined>;
  /** the run's options, resolved once (core/options/resolve-options.ts): its settings are made of them
   * (core/run/settings-from-options.ts), the notify command is run from them */
  resolved: RunOptionValues;
  workbench: string | null;
  /** the step, once the lineage's own on --continue is known */
  step: string;
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
  /** the internal tunables, for tests (absent: core/options/tunables.ts) */
  tunables?: Partial<Tunables>;
  /** the run server's native relay for claude's pty (adapters/fast-relay.ts); absent: node-pty's streams */
  relay?: FastRelay | null;
  /** the sink the run server's clients hand claude's keys to (claude-keys.ts); absent: the face's onInput */
  keys?: ClaudeKeys;
}

export interface SuperviseResult {
  exitCode: number;
  message?: string;
}

// What the person's own launch gave the run (their flags, their user settings), which a successor's
// permission mode never goes beyond: the mode it started in, and whether it may bypass permissions at all.
async function launchGrant(
  claudeArgs: readonly string[],
  configDir: string,
): Promise<{ bypassAllowed: boolean; launchMode: string }> {
  const settingsMode = await settingsDefaultMode({ configDir });
  return {
    bypassAllowed: flagsAllowBypass(claudeArgs) || settingsMode === BYPASS_MODE,
    launchMode: launchModeOf(claudeArgs, settingsMode),
  };
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
      settingsFromOptions(
        opts.resolved,
        {
          step: opts.step,
          cwd: cwdReal,
          workbench: opts.workbench,
          documentPath: documents.currentPath,
          eventsPath: opts.eventsPath,
          prompt: opts.prompt,
          env: opts.env,
          stopBlockCap: stopBlockCap(opts.env),
          hookContextChars: HOOK_CONTEXT_MAX_CHARS,
          dialect: RUN_DIALECT,
        },
        opts.tunables,
      ),
      new Date().toISOString(),
      opts.resume,
    );
    // Hooks and the status line reach the run through a private socket (only when handing off:
    // --no-handoff leaves claude alone).
    let settingsPath: string | null = null;
    let userStatusLine: string | null = null;
    if (opts.resolved.handoff) {
      channel = await openHookChannel({ handler: (msg) => loop?.hook(msg.event, msg.payload) ?? '' });
      userStatusLine = await findUserStatusLine({ configDir, cwd: cwdReal });
      settingsPath = await writeRunSettings({
        dir: runDir,
        hookCommand: defaultHookCommand(),
        statusLine: true,
        release: opts.release ?? null,
      });
    }
    // chokidar cannot see a file appear in a folder that does not exist yet: make the folder first.
    if (documents.currentPath) makePrivateDir(dirname(documents.currentPath), STATE_DIR);
    const spillDir = opts.workbench ? join(opts.workbench, 'notes') : runDir;
    makePrivateDir(spillDir, STATE_DIR);
    const child = realChildPort({
      claude: opts.claude,
      claudeArgs: opts.claudeArgs,
      cwd: opts.cwd,
      cwdReal,
      configDir,
      env: opts.env,
      handoff: opts.resolved.handoff,
      keepAutoCompact: opts.resolved.keepAutoCompact,
      settingsPath,
      channel: channel ? { socketPath: channel.socketPath, token: channel.token } : null,
      userStatusLine,
      spillDir,
      privateDir: runDir,
      recordPrompts: opts.workbench !== null,
      relay: opts.relay ?? null,
      ...(await launchGrant(opts.claudeArgs, configDir)),
    });
    // The notify command is told through its environment only, never blocks the run, and is rate-limited.
    const notifyCommand = opts.resolved.notifyCommand;
    const notifier = notifyCommand
      ? createNotifier({
          command: notifyCommand,
          log: (line) => opts.log(`notify-command: ${line}`),
          env: opts.env,
          run: `${opts.step} in ${cwdReal}`,
          cwd: cwdReal,
        })
      : null;
    loop = startRunLoop({
      initial: state,
      ports: {
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
        coverage: scoreAgainstTranscript,
      },
      face,
      ...(opts.keys ? { keys: opts.keys } : {}),
    });
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
