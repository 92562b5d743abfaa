// The default command: validate everything a person can get wrong before anything starts, start
// the run's server, and attach this terminal to it as the first client (plain or split face).
// superviseInTerminal (the run in this process, one face) stays for the demo.

import { resolve } from 'node:path';
import { existsSync, statSync } from 'node:fs';
import { EXIT, FlowerError } from '../core/errors.js';
import { resolveClaude } from '../adapters/claude-binary.js';
import { ownCommandHere } from '../adapters/own-command-here.js';
import { requireSupportedRelease } from '../adapters/claude-probe.js';
import { validateStep } from '../core/document/step-name.js';
import { resolvePolicy } from '../core/run/policy.js';
import { stringDefault, type RunOptionValues } from '../core/options/options-table.js';
import { formatTokens } from '../core/meter/token-format.js';
import { foregroundOnlyArg, refusedClaudeArg } from '../claude-code/child-launch.js';
import { readManifest } from '../adapters/manifest-store.js';
import { openNotesStore } from '../adapters/notes-store.js';
import { checkNotifyCommand } from '../adapters/notify-command.js';
import { checkAppendTarget } from '../adapters/append-file.js';
import { checkWorkbenchWritable } from '../adapters/workbench-check.js';
import { gitignoreNote, gitWouldTrack } from '../adapters/git-ignore.js';
import { EMPTY_WORKBENCH } from '../adapters/config-file.js';
import { parsePrefix } from '../core/screen/keymap.js';
import { startRunServer } from '../server/start-server.js';
import { attachTerminal, plainDetachKey } from '../client/attach-client.js';
import { faceSize } from '../client/attach-hello.js';
import type { SuperviseOptions } from '../runtime/supervisor.js';
import { sayErr, sayOut } from '../adapters/terminal-lines.js';

/** the run options resolved once (core/options/resolve-options.ts), and what is not an option row */
export type RunCommandOptions = RunOptionValues & {
  prompt: string | null;
  claudeArgs: string[];
};

function mask(token: string | undefined): string {
  if (!token) return '(none)';
  return `${token.slice(0, 4)}${'*'.repeat(Math.min(12, Math.max(4, token.length - 4)))}`;
}

function modelOf(args: readonly string[], env: NodeJS.ProcessEnv): string {
  const i = args.findIndex((a) => a === '--model' || a.startsWith('--model='));
  if (i !== -1) return args[i]!.includes('=') ? args[i]!.split('=')[1]! : (args[i + 1] ?? '?');
  return env.ANTHROPIC_MODEL || "(claude's default)";
}

/** what claude may not be given under flower-pty, refused before anything starts */
function refuseClaudeArgs(o: RunCommandOptions, own: string): void {
  const foreground = foregroundOnlyArg(o.claudeArgs);
  if (foreground) {
    throw new FlowerError(
      `${foreground} cannot be passed to claude: flower-pty runs claude in its own terminal; ` +
        `to walk away, use flower-pty's own detach (C-] d) and ${own} attach`,
    );
  }
  const refused = refusedClaudeArg(o.claudeArgs);
  if (refused && o.handoff) {
    throw new FlowerError(
      `${refused} cannot be passed to claude: flower-pty starts every session fresh with its own session id; to pick up a lineage use ${own} --continue`,
    );
  }
}

/** the workbench's absolute path (null: --no-workbench), refused when a file stands there */
function workbenchOf(o: RunCommandOptions, cwd: string): string | null {
  if (typeof o.workbench === 'string' && o.workbench.trim() === '') {
    throw new FlowerError(EMPTY_WORKBENCH);
  }
  const workbench = o.workbench === false ? null : resolve(cwd, o.workbench);
  if (workbench) {
    try {
      if (!statSync(workbench).isDirectory())
        throw new FlowerError(`--workbench ${workbench} exists and is not a folder: choose another path`);
    } catch (error) {
      if (error instanceof FlowerError) throw error;
    }
  }
  return workbench;
}

/** --continue: the lineage's manifest and current document, refused in one line when there is none */
async function lineageToResume(workbench: string | null): Promise<NonNullable<SuperviseOptions['resume']>> {
  if (!workbench) throw new FlowerError('--continue needs a workbench to read the lineage from: drop --no-workbench');
  const { manifest, problem, malformed } = await readManifest(workbench);
  if (malformed !== null) throw new FlowerError(`--continue cannot pick the lineage up: ${malformed}`);
  if (!manifest) throw new FlowerError(`--continue found nothing to continue: ${problem}; start a run first`);
  const document = await openNotesStore(workbench, manifest.step).read();
  return { manifest, document };
}

/** --verbose: what this run will talk to and with which limits, before it starts */
function sayWhatRuns(
  o: RunCommandOptions,
  claude: string,
  policy: ReturnType<typeof resolvePolicy>,
  where: { workbench: string | null; step: string },
): void {
  const e = process.env;
  const line = (s: string) => sayErr(`flower-pty: ${s}`);
  line(`claude ${claude}`);
  line(`endpoint ${e.ANTHROPIC_BASE_URL || 'https://api.anthropic.com (default)'} · model ${modelOf(o.claudeArgs, e)}`);
  line(`token ${mask(e.ANTHROPIC_AUTH_TOKEN || e.ANTHROPIC_API_KEY)}`);
  const source = policy.windowSource === 'flag' ? 'given' : policy.windowSource; // by flag, FLOWER_PTY_WINDOW or config
  line(
    `window ${formatTokens(policy.window)} (${source}${o.window === undefined ? "; Claude Code's own report will replace it" : ''}) · near at ${formatTokens(policy.warnAt)} · handoff at ${formatTokens(policy.at)} · max ${policy.maxGenerations} generations`,
  );
  line(
    `workbench ${where.workbench ?? '(none: documents only go through the prompt)'} · step ${where.step} · handoff ${o.handoff ? 'on' : 'off'}`,
  );
}

export async function runCommand(o: RunCommandOptions): Promise<number> {
  const cwd = process.cwd();
  // how flower-pty is typed here (core/options/own-command.ts): each next step below works as printed
  const own = ownCommandHere(process.env, cwd);
  const stepCheck = validateStep(o.step ?? stringDefault('step'));
  if ('problem' in stepCheck) throw new FlowerError(stepCheck.problem);
  let step = stepCheck.step;
  refuseClaudeArgs(o, own);
  const workbench = workbenchOf(o, cwd);
  // Validate the policy now so a bad --window fails before claude starts.
  const policy = resolvePolicy({
    ...(o.window !== undefined ? { window: o.window } : {}),
    ...(o.headroom !== undefined ? { headroom: o.headroom } : {}),
    ...(o.maxGenerations !== undefined ? { maxGenerations: o.maxGenerations } : {}),
    env: process.env,
  });
  if (o.notifyCommand !== undefined) checkNotifyCommand(o.notifyCommand);
  // a FIFO or a device named here would block the run server in open() before claude starts
  const eventsPath = o.events ? checkAppendTarget(resolve(cwd, o.events), '--events', cwd) : null;
  const logPath = o.log ? checkAppendTarget(resolve(cwd, o.log), '--log', cwd) : null;
  const claude = resolveClaude({ ...(o.claude !== undefined ? { flag: o.claude } : {}), env: process.env, cwd });

  const resume: SuperviseOptions['resume'] = o.continue ? await lineageToResume(workbench) : null;
  // The lineage keeps its own step (its documents are under that name) unless the person names another.
  if (resume && o.step === undefined) step = resume.manifest.step;

  // Last of the checks, as it makes the folders: a workbench this run cannot write fails here, not mid-run.
  const freshWorkbench = workbench !== null && !existsSync(workbench);
  if (workbench) checkWorkbenchWritable(workbench);
  // A workbench made now inside a git work tree that does not ignore it: said once, with the line to add.
  if (workbench && freshWorkbench && (await gitWouldTrack(workbench, process.env)))
    sayErr(`flower-pty: ${gitignoreNote(workbench, cwd)}`);

  // The release, right before spawning (every usage error first): too old is refused here; the rest
  // decides which hooks the settings may register.
  const release = await requireSupportedRelease({
    claude,
    env: process.env,
    verbose: o.verbose,
    say: (s) => sayErr(`flower-pty: ${s}`),
  });

  if (o.verbose) sayWhatRuns(o, claude, policy, { workbench, step });
  if (o.keepAutoCompact && o.handoff) {
    sayErr(
      "flower-pty: WARNING: --keep-auto-compact leaves Claude Code's auto-compact on. It may compact before the handoff line and nobody can tell who shrank the context: this defeats the handoff.",
    );
  }

  // The run lives in a server of its own; this terminal is its first client (tmux's model).
  const plain = o.plain || !process.stdout.isTTY;
  const detachKey = plainDetachKey(o.detachKey);
  // The face's own setting is checked before the server starts: a run nobody can attach to helps no one.
  const prefix = process.env.FLOWER_PTY_PREFIX;
  if (!plain && prefix !== undefined) {
    const parsed = parsePrefix(prefix);
    if ('problem' in parsed) throw new FlowerError(`FLOWER_PTY_PREFIX: ${parsed.problem}`);
  }
  const size = faceSize(plain, process.stdout);
  const server = await startRunServer(
    {
      options: {
        claude,
        claudeArgs: o.claudeArgs,
        prompt: o.prompt,
        cwd,
        resolved: o,
        workbench,
        step,
        eventsPath,
        resume,
        release,
      },
      logPath,
      notify: o.notify && Boolean(process.stdout.isTTY),
      ...size,
    },
    process.env,
  );
  if (o.detach) {
    sayOut(server.id);
    sayErr(
      `flower-pty: run ${server.id} started with no terminal (pid ${server.pid}); ` +
        `attach with ${own} attach ${server.id}, or open it in ${own} web; ${own} kill ${server.id} ends it`,
    );
    return EXIT.ok;
  }
  return attachTerminal({
    socketPath: server.socketPath,
    plain,
    detachKey,
    documentPath: workbench ? openNotesStore(workbench, step).currentPath : null,
    starter: true,
    serverExited: server.exited,
  });
}
