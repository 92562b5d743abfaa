// The release probe: runs `claude --version` before anything is spawned and caches the answer per
// binary (real path + mtime + size) under $XDG_CACHE_HOME/flower-pty, since a release's start costs
// 0.1–1.2 s and a binary never changes without its mtime changing.
import { execFile } from 'node:child_process';
import { readFile, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file.js';
import { makePrivateDir, STATE_DIR } from './private-dir.js';
import { FlowerError, EXIT } from '../core/errors.js';
import { parseRelease, supportFor, type Release } from '../claude-code/release.js';

export interface ProbeResult {
  /** null: the version could not be read or parsed; treat it as the newest */
  release: Release | null;
  /** what `claude --version` printed (trimmed, first 200 characters) */
  printed: string;
  cached: boolean;
  /** one line to show once when the release is unknown */
  warning: string | null;
}

export interface ProbeOptions {
  claude: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** default: $XDG_CACHE_HOME/flower-pty, else ~/.cache/flower-pty */
  cacheDir?: string;
}

export const PROBE_TIMEOUT_MS = 5_000;
const CACHE_FILE = 'claude-releases.json';
// Enough entries for every claude a person switches between; the oldest go first.
const CACHE_LIMIT = 32;

export function cacheDirFor(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'flower-pty');
}

export async function probeRelease(opts: ProbeOptions): Promise<ProbeResult> {
  const cacheDir = opts.cacheDir ?? cacheDirFor(opts.env);
  const key = await binaryKey(opts.claude);
  const cache = await readCache(cacheDir);
  const hit = key === null ? undefined : cache[key];
  if (hit !== undefined) return result(hit, true);
  const printed = await runVersion(opts.claude, opts.env, opts.timeoutMs ?? PROBE_TIMEOUT_MS);
  // Only a parsed answer is kept: a timeout on a loaded machine must not stick to the binary.
  if (key !== null && parseRelease(printed) !== null) await writeCache(cacheDir, { ...cache, [key]: printed });
  return result(printed, false);
}

function result(printed: string, cached: boolean): ProbeResult {
  const release = parseRelease(printed);
  const warning =
    release === null
      ? `could not read the Claude Code release from \`claude --version\` ` +
        `(${printed === '' ? 'no answer' : JSON.stringify(printed.slice(0, 80))}); going on as if it were the newest`
      : null;
  return { release, printed, cached, warning };
}

async function binaryKey(claude: string): Promise<string | null> {
  try {
    const real = await realpath(claude);
    const s = await stat(real);
    return `${real}|${Math.trunc(s.mtimeMs)}|${s.size}`;
  } catch {
    return null; // vanished since it was resolved: no caching, the run itself will say so
  }
}

// Resolves with stdout (trimmed), or '' when it failed, timed out or printed nothing. No shell: the path
// may hold anything.
function runVersion(claude: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      claude,
      ['--version'],
      { env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 },
      (error, stdout) => {
        resolve(error && !stdout ? '' : String(stdout).trim().slice(0, 200));
      },
    );
  });
}

async function readCache(dir: string): Promise<Record<string, string>> {
  try {
    const parsed: unknown = JSON.parse(await readFile(join(dir, CACHE_FILE), 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {}; // missing or damaged: probe again
  }
}

async function writeCache(dir: string, entries: Record<string, string>): Promise<void> {
  try {
    makePrivateDir(dir, STATE_DIR);
    await writeFileAtomic(
      join(dir, CACHE_FILE),
      JSON.stringify(Object.fromEntries(Object.entries(entries).slice(-CACHE_LIMIT)), null, 2) + '\n',
    );
  } catch {
    // a read-only cache costs one probe per run, nothing else
  }
}

export interface ReleaseCheck {
  claude: string;
  env: NodeJS.ProcessEnv;
  verbose: boolean;
  /** one line to stderr, without the "flower-pty: " prefix */
  say: (line: string) => void;
  cacheDir?: string;
  timeoutMs?: number;
}

// Before spawning: the release, or a one-line refusal (exit 5) for one older than MIN_SUPPORTED. An
// unreadable version warns once and goes on as the newest; -v says what an older release costs.
export async function requireSupportedRelease(check: ReleaseCheck): Promise<Release | null> {
  const probe = await probeRelease({
    claude: check.claude,
    env: check.env,
    ...(check.cacheDir !== undefined ? { cacheDir: check.cacheDir } : {}),
    ...(check.timeoutMs !== undefined ? { timeoutMs: check.timeoutMs } : {}),
  });
  if (probe.warning) check.say(`WARNING: ${probe.warning}`);
  const support = supportFor(probe.release);
  if (support.kind === 'too-old') throw new FlowerError(support.message, EXIT.claudeMissing);
  if (check.verbose) {
    check.say(
      `Claude Code ${probe.release?.text ?? 'release unknown (taken as the newest)'}${probe.cached ? ' (cached)' : ''}`,
    );
    for (const cost of support.costs) check.say(`  older release: ${cost}`);
  }
  return probe.release;
}
