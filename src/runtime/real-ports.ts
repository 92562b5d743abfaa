// The ports made of the real adapters: node-pty for claude, the transcript tail and reader, the
// notes store, the atomic manifest writer, the events file, chokidar, and the wall clock.

import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { createSessionReader } from '../claude-code/session-reader.js';
import { writeAdvice } from '../core/run/write-trouble.js';
import { transcriptPathFor } from '../claude-code/transcript-path.js';
import { notificationSequence } from '../core/screen/notification.js';
import {
  launchArgs,
  launchEnv,
  promptArgument,
  successorArgument,
  type LaunchInput,
} from '../claude-code/child-launch.js';
import { addedDirsOf, successorArgs } from '../claude-code/successor-args.js';
import { successorModes } from '../claude-code/permission-modes.js';
import { boundPlace, type PlaceGrant, type SessionPlace } from '../core/lineage/session-place.js';
import { worktreesOf } from '../adapters/git-worktrees.js';
import { resolveClaude } from '../adapters/claude-binary.js';
import { ownCommandHere } from '../adapters/own-command-here.js';
import { spawnPty } from '../adapters/pty-session.js';
import type { FastRelay } from '../adapters/fast-relay.js';
import { openTranscriptTail } from '../adapters/transcript-tail.js';
import { openNotesStore } from '../adapters/notes-store.js';
import { createManifestWriter, errorWords, manifestPath } from '../adapters/manifest-store.js';
import { EXIT, FlowerError } from '../core/errors.js';
import { openEventsLog } from '../adapters/events-log.js';
import { watchFile } from '../adapters/file-watch.js';
import type {
  ChildPort,
  ChildSpec,
  ClockPort,
  DocumentPort,
  EventsPort,
  LineagePort,
  TranscriptPort,
} from './ports.js';

export interface ChildLaunchConfig {
  /** the claude found at start-up; looked up again before every spawn (Claude Code updates itself) */
  claude: string;
  claudeArgs: string[];
  cwd: string;
  cwdReal: string;
  configDir: string;
  env: Record<string, string | undefined>;
  handoff: boolean;
  keepAutoCompact: boolean;
  settingsPath: string | null;
  channel: { socketPath: string; token: string } | null;
  userStatusLine: string | null;
  /** where a too-long prompt and a typed request go (the workbench's notes, else the private run folder) */
  spillDir: string;
  /** the run's own 0700 folder: a successor's first prompt goes there, 0600, never on the command line */
  privateDir: string;
  /** keep every successor's first prompt in spillDir (a workbench: the report shows what each session was told) */
  recordPrompts: boolean;
  /** the person's own launch let their sessions bypass permissions (their flags or their settings) */
  bypassAllowed: boolean;
  /** the mode the person's own launch started the session in (claude-code/permission-modes.ts) */
  launchMode: string;
  /** the native relay takes claude's pty when there is one (the run server's) */
  relay?: FastRelay | null;
}

// The binary as it is now: the same path if it is still there (an update replaces what it points to),
// else whatever PATH has; a one-line error when there is none.
function currentClaude(config: ChildLaunchConfig): string {
  try {
    return resolveClaude({ flag: config.claude, env: config.env as NodeJS.ProcessEnv, cwd: config.cwd });
  } catch {
    return resolveClaude({ env: config.env as NodeJS.ProcessEnv, cwd: config.cwd });
  }
}

// A successor's first prompt: in a file only the user can read (the model reads it when no hook carries
// it), and, with a workbench, a copy in notes/ for the report. The copy is only a record: it never stops a run.
async function successorPrompt(
  config: ChildLaunchConfig,
  spec: ChildSpec,
  prompt: string,
  recordFailed: (path: string, error: string) => void,
): Promise<string> {
  const file = join(config.privateDir, `successor-prompt-${spec.generation}.md`);
  const written = await writeFile(file, prompt, { mode: 0o600 }).then(
    () => true,
    (error: unknown) => {
      if (spec.viaHook) return false; // the hook carries it whole all the same
      throw new FlowerError(
        `could not write the successor's first prompt to ${file}: ${errorWords(error)}; ` +
          `${writeAdvice(errorWords(error))}, then ${ownCommandHere(config.env as NodeJS.ProcessEnv, config.cwd)} --continue`,
        EXIT.writeFailed,
      );
    },
  );
  if (config.recordPrompts) {
    const record = join(config.spillDir, `successor-prompt-${spec.generation}.md`);
    await writeFile(record, prompt, { mode: 0o600 }).catch((error: unknown) => recordFailed(record, errorWords(error)));
  }
  return successorArgument({ file: written ? file : null, viaHook: spec.viaHook });
}

// The predecessor's folder if it is still a folder (a worktree can be removed between generations).
function folderFor(place: SessionPlace | null, config: ChildLaunchConfig): { folder: string; refused: string | null } {
  if (place?.folder == null) return { folder: config.cwd, refused: null };
  try {
    if (statSync(place.folder).isDirectory()) return { folder: place.folder, refused: null };
  } catch {
    // gone: said below
  }
  return {
    folder: config.cwd,
    refused: `the session's folder ${place.folder} is gone: the successor starts in ${config.cwd}`,
  };
}

export function realChildPort(config: ChildLaunchConfig): ChildPort {
  const realFolder = (folder: string): string => {
    try {
      return realpathSync(folder);
    } catch {
      return folder;
    }
  };
  // What the person gave the run, which a successor never goes beyond (hooks can be forged by any
  // command claude runs): read at each spawn, as a worktree can be made mid-run.
  const grant = (spec: ChildSpec): PlaceGrant => ({
    modes: successorModes(config.launchMode, spec.personModes ?? [], config.bypassAllowed),
    folders: [config.cwdReal, ...worktreesOf(config.cwdReal)],
    dirs: [
      ...addedDirsOf(config.claudeArgs).map((dir) => resolve(config.cwd, dir)),
      ...(spec.personDirs ?? []).map((dir) => resolve(config.cwd, dir)),
    ],
  });
  return {
    async spawn(spec, on) {
      const bound = spec.place ? boundPlace(spec.place, grant(spec), realFolder) : null;
      const { folder, refused: gone } = folderFor(bound?.place ?? null, config);
      const refused = [...(bound?.refused ?? []), ...(gone ? [gone] : [])].join('; ') || null;
      const userArgs = bound
        ? successorArgs(config.claudeArgs, gone ? { ...bound.place, folder: null } : bound.place)
        : config.claudeArgs;
      const claude = currentClaude(config);
      let prompt = spec.prompt;
      if (prompt && spec.successor) {
        prompt = await successorPrompt(config, spec, prompt, on.recordFailed);
      } else if (prompt) {
        const spillPath = join(config.spillDir, `successor-prompt-${spec.generation}.md`);
        const { arg, spill } = promptArgument(prompt, spillPath);
        if (spill) {
          await writeFile(spillPath, prompt, { mode: 0o600 }).catch((error: unknown) => {
            throw new FlowerError(
              `could not write the first prompt to ${spillPath}: ${errorWords(error)}; ${writeAdvice(errorWords(error))}`,
              EXIT.writeFailed,
            );
          });
        }
        prompt = arg;
      }
      const launch: LaunchInput = {
        sessionId: spec.sessionId,
        settingsPath: config.settingsPath,
        userArgs,
        prompt,
        handoff: config.handoff,
        keepAutoCompact: config.keepAutoCompact,
        baseEnv: config.env,
        channel: config.channel,
        userStatusLine: config.userStatusLine,
        window: spec.window,
      };
      const args = config.handoff ? launchArgs(launch) : [...userArgs, ...(prompt ? [prompt] : [])];
      const pty = spawnPty(
        { file: claude, args, cwd: folder, env: launchEnv(launch), cols: spec.cols, rows: spec.rows },
        config.relay ?? null,
      );
      pty.onData(on.data);
      pty.onExit((exit) => on.exit({ code: exit.exitCode, ...(exit.signal ? { signal: exit.signal } : {}) }));
      return {
        folder,
        refused,
        get exited() {
          return pty.exited;
        },
        write: (data) => pty.write(data),
        resize: (cols, rows) => pty.resize(cols, rows),
        terminate: async (graceMs) => {
          await pty.terminate(graceMs);
        },
      };
    },
    transcriptPath: (sessionId, folder) =>
      transcriptPathFor(
        config.configDir,
        folder === undefined || folder === config.cwd ? config.cwdReal : realFolder(folder),
        sessionId,
      ),
    async writeRequest(generation, text) {
      const path = join(config.spillDir, `handoff-request-${generation}-${randomUUID().slice(0, 8)}.md`);
      await writeFile(path, text, { mode: 0o644 });
      return path;
    },
  };
}

export function realTranscriptPort(): TranscriptPort {
  return {
    follow(path, on) {
      // The session's own state (tasks, a /loop, crons, a goal, ...) and its tool runs are read off the same lines as the meter.
      const open = () =>
        createSessionReader({ scope: (changes) => on.scope?.(changes), toolRun: (run) => on.toolRun?.(run) });
      let reader = open();
      const tail = openTranscriptTail({
        path,
        onChunk: (bytes) => {
          for (const signal of reader.push(bytes)) {
            const m = reader.meter;
            on.signal(signal, { context: m.context, costUsd: m.costUsd, numTurns: m.numTurns });
          }
        },
        onReset: (reason) => {
          reader = open();
          on.reset(reason);
        },
        onPresence: (found) => on.presence?.(found),
        onRefused: (line) => on.refused?.(line),
      });
      return { catchUp: () => tail.catchUp(), repoint: (next) => tail.repoint(next), dispose: () => tail.close() };
    },
  };
}

export function realDocumentPort(workbench: string | null, step: string): DocumentPort {
  if (!workbench) {
    return {
      currentPath: null,
      freeze: async () => ({ path: null, archived: null }),
      read: async () => null,
      saveDraft: async () => null,
      watch: () => ({ dispose() {} }),
    };
  }
  const notes = openNotesStore(workbench, step);
  return {
    currentPath: notes.currentPath,
    freeze: (text, now) => notes.freeze(text, now),
    read: () => notes.read(),
    saveDraft: (text, now) => notes.saveDraft(text, now),
    watch(onChange) {
      const w = watchFile(notes.currentPath, (kind) => {
        if (kind === 'removed') onChange(null);
        else void notes.read().then(onChange, () => undefined); // over the ceiling: the view keeps what it had; the seed says it
      });
      return { dispose: () => void w.close() };
    },
  };
}

export function realLineagePort(workbench: string | null, log: (line: string) => void): LineagePort {
  const writer = workbench ? createManifestWriter(workbench, (e) => log(`manifest write failed: ${String(e)}`)) : null;
  return {
    path: workbench ? manifestPath(workbench) : null,
    write: async (m) => (writer ? writer.write(m) : null),
    flush: async () => (writer ? writer.flush() : null),
  };
}

export function realEventsPort(path: string | null): EventsPort {
  const log = openEventsLog(path);
  return { emit: (name, fields) => log.emit(name, fields) };
}

export const wallClock: ClockPort = {
  now: () => Date.now(),
  wakeAt(at, fire) {
    const timer = setTimeout(fire, Math.max(0, at - Date.now()));
    return { dispose: () => clearTimeout(timer) };
  },
};

export function terminalAlert(notify: ((sequence: string) => void) | null): (title: string, body: string) => void {
  return (title, body) => notify?.(notificationSequence(title, body));
}
