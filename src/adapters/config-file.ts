// Settings from outside the command line: the project's <workbench>/config.json, the user's
// $XDG_CONFIG_HOME/flower-pty/config.json and FLOWER_PTY_* variables. Flags win over env, env over
// project, project over user. A bad file or value is one line naming where it came from (exit 2).

import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { EXIT, FlowerError } from '../errors.js';
import { parseTokenCount } from '../core/policy.js';
import { checkSeconds, type SecondsSetting } from '../core/seconds-value.js';
import { ignoredLine, screenProjectConfig } from '../core/project-trust.js';
import { isTrusted, readTrustFile, trustFilePath, trustKey } from './trust-store.js';
import { printable } from '../core/run-list.js';

export interface ConfigValues {
  window?: number;
  headroom?: number;
  'max-generations'?: number;
  workbench?: string;
  step?: string;
  review?: number;
  'write-timeout'?: number;
  'parked-retry'?: number;
  events?: string;
  log?: string;
  plain?: boolean;
  notify?: boolean;
  'notify-command'?: string;
  claude?: string;
}

export type ConfigKey = keyof ConfigValues;

type Kind = 'tokens' | 'seconds' | 'count' | 'string' | 'boolean';

// Every key a file may hold, with its FLOWER_PTY_* variable. Unknown keys are refused: a typo
// that is silently ignored is a setting that silently does not apply.
export const CONFIG_KEYS: Readonly<Record<ConfigKey, { kind: Kind; env: string }>> = {
  window: { kind: 'tokens', env: 'FLOWER_PTY_WINDOW' },
  headroom: { kind: 'tokens', env: 'FLOWER_PTY_HEADROOM' },
  'max-generations': { kind: 'count', env: 'FLOWER_PTY_MAX_GENERATIONS' },
  workbench: { kind: 'string', env: 'FLOWER_PTY_WORKBENCH' },
  step: { kind: 'string', env: 'FLOWER_PTY_STEP' },
  review: { kind: 'seconds', env: 'FLOWER_PTY_REVIEW' },
  'write-timeout': { kind: 'seconds', env: 'FLOWER_PTY_WRITE_TIMEOUT' },
  'parked-retry': { kind: 'seconds', env: 'FLOWER_PTY_PARKED_RETRY' },
  events: { kind: 'string', env: 'FLOWER_PTY_EVENTS' },
  log: { kind: 'string', env: 'FLOWER_PTY_LOG' },
  plain: { kind: 'boolean', env: 'FLOWER_PTY_PLAIN' },
  notify: { kind: 'boolean', env: 'FLOWER_PTY_NOTIFY' },
  'notify-command': { kind: 'string', env: 'FLOWER_PTY_NOTIFY_COMMAND' },
  claude: { kind: 'string', env: 'FLOWER_PTY_CLAUDE' },
};

const isKey = (key: string): key is ConfigKey => Object.hasOwn(CONFIG_KEYS, key);

// One value checked against its kind; a string from the environment is read as a person types it.
function checkValue(kind: Kind, raw: unknown, key?: ConfigKey): { value: number | string | boolean } | { problem: string } {
  switch (kind) {
    case 'tokens': {
      if (typeof raw !== 'number' && typeof raw !== 'string') return { problem: `expects a token count like 200000 or "200k", got ${JSON.stringify(raw)}` };
      try {
        return { value: parseTokenCount('value', raw) };
      } catch {
        return { problem: `expects a token count like 200000 or "200k", got ${JSON.stringify(raw)}` };
      }
    }
    case 'seconds':
      return checkSeconds(key as SecondsSetting, raw);
    case 'count': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      if (Number.isInteger(n) && n >= 1) return { value: n };
      return { problem: `expects a whole number of at least 1, got ${JSON.stringify(raw)}` };
    }
    case 'string':
      if (typeof raw === 'string' && raw.trim() !== '') return { value: raw };
      return { problem: `expects a non-empty string, got ${JSON.stringify(raw)}` };
    case 'boolean': {
      if (typeof raw === 'boolean') return { value: raw };
      const word = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
      if (['1', 'true', 'yes', 'on'].includes(word)) return { value: true };
      if (['0', 'false', 'no', 'off'].includes(word)) return { value: false };
      return { problem: `expects true or false, got ${JSON.stringify(raw)}` };
    }
  }
}

function setValue(into: ConfigValues, key: ConfigKey, value: number | string | boolean): void {
  (into as Record<string, unknown>)[key] = value;
}

// A JSON object of known keys, every value checked. Never throws anything but a FlowerError.
export function parseConfigText(text: string, source: string): ConfigValues {
  let data: unknown;
  try {
    // a byte-order mark (some Windows editors write one) is not JSON, and not the person's mistake
    data = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    // what JSON.parse quotes of the file is shown visibly: an invisible character must not hide the problem
    const why = printable(error instanceof Error ? error.message : String(error)).replace(/[\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    throw new FlowerError(`${source}: not valid JSON (${why}); fix or remove the file`, EXIT.usage);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new FlowerError(`${source}: expected a JSON object like {"window": "200k"}; fix or remove the file`, EXIT.usage);
  }
  const values: ConfigValues = {};
  for (const [key, raw] of Object.entries(data)) {
    if (!isKey(key)) throw new FlowerError(`${source}: unknown key "${key}" (known: ${Object.keys(CONFIG_KEYS).join(', ')})`, EXIT.usage);
    const checked = checkValue(CONFIG_KEYS[key].kind, raw, key);
    if ('problem' in checked) throw new FlowerError(`${source}: "${key}" ${checked.problem}`, EXIT.usage);
    setValue(values, key, checked.value);
  }
  return values;
}

// A missing file is no configuration; an unreadable or malformed one is an error.
export function readConfigFile(path: string): ConfigValues {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: the workbench is a file; the run says so about the workbench, not about its config
    if (code === 'ENOENT' || code === 'ENOTDIR') return {};
    if (code === 'EISDIR') throw new FlowerError(`${path}: is a folder, not a config file; remove it or make it a JSON file`, EXIT.usage);
    throw new FlowerError(`${path}: cannot be read (${code ?? String(error)})`, EXIT.usage);
  }
  return parseConfigText(text, path);
}

// Switches that are variables only (no flag, no config key): checked with the rest, read where used.
const ENV_SWITCHES = ['FLOWER_PTY_NO_NATIVE'] as const;

/** a variable-only switch: unset or empty is false; a word that is not true or false is a one-line error */
export function envSwitch(env: Readonly<Record<string, string | undefined>>, name: (typeof ENV_SWITCHES)[number]): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return false;
  const checked = checkValue('boolean', raw);
  if ('problem' in checked) throw new FlowerError(`${name} ${checked.problem}`, EXIT.usage);
  return checked.value === true;
}

export function configFromEnv(env: Readonly<Record<string, string | undefined>>): ConfigValues {
  const values: ConfigValues = {};
  for (const name of ENV_SWITCHES) envSwitch(env, name);
  for (const [key, spec] of Object.entries(CONFIG_KEYS) as Array<[ConfigKey, { kind: Kind; env: string }]>) {
    // FLOWER_PTY_CLAUDE is read where claude is resolved, so its errors name the variable.
    if (key === 'claude') continue;
    const raw = env[spec.env];
    if (raw === undefined || raw === '') continue;
    const checked = checkValue(spec.kind, raw, key);
    if ('problem' in checked) throw new FlowerError(`${spec.env} ${checked.problem}`, EXIT.usage);
    setValue(values, key, checked.value);
  }
  return values;
}

export function userConfigPath(env: Readonly<Record<string, string | undefined>>): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'flower-pty', 'config.json');
}

/** `--workbench ''` would resolve to the project folder itself and scatter the lineage there */
export const EMPTY_WORKBENCH = '--workbench needs a folder, got an empty value (it would put the lineage in the project folder itself): give a path such as --workbench .flower, or --no-workbench';

export interface LoadedConfig {
  values: ConfigValues;
  /** the files that were looked at, in order of precedence (highest first) */
  files: string[];
  /** one line per project file whose settings were ignored, saying which and why (for stderr) */
  notes: string[];
}

// The path a project file names, resolved against the folder and its symlinks followed as far as they
// exist: is it inside the project? A link in a cloned repository can point anywhere.
function insideProject(cwd: string, value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const real = (path: string): string => {
    try {
      return realpathSync(path);
    } catch {
      const parent = dirname(path);
      return parent === path ? path : join(real(parent), basename(path));
    }
  };
  const root = real(cwd);
  const target = real(resolve(cwd, value));
  return target === root || target.startsWith(root.endsWith(sep) ? root : root + sep);
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

// The merged settings below the flags. The project file sits in the workbench, which the flag,
// FLOWER_PTY_WORKBENCH or the user's file may move (a project file cannot move itself: circular).
// The project file is screened (core/project-trust.ts) unless the person trusted the folder: it may
// not name a program or a path outside the project. A default `.flower` that is a symlink is not
// followed without trust; `refuseLinkedWorkbench` (a run, which writes there) makes that an error.
export function loadConfig(opts: {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  workbenchFlag?: string | false;
  refuseLinkedWorkbench?: boolean;
}): LoadedConfig {
  const fromEnv = configFromEnv(opts.env);
  const user = userConfigPath(opts.env);
  const fromUser = readConfigFile(user);
  const files: string[] = [];
  const notes: string[] = [];
  let project: ConfigValues = {};
  if (typeof opts.workbenchFlag === 'string' && opts.workbenchFlag.trim() === '') {
    throw new FlowerError(EMPTY_WORKBENCH, EXIT.usage);
  }
  if (opts.workbenchFlag !== false) {
    const named = opts.workbenchFlag ?? fromEnv.workbench ?? fromUser.workbench;
    const workbench = resolve(opts.cwd, named ?? '.flower');
    const path = join(workbench, 'config.json');
    files.push(path);
    const trusted = () => isTrusted(readTrustFile(trustFilePath(user)), workbench, path);
    if (named === undefined && isSymlink(workbench) && !trusted()) {
      if (opts.refuseLinkedWorkbench) {
        throw new FlowerError(
          `${workbench} is a symlink to ${trustKey(workbench)}: a project's .flower is not followed elsewhere unless you say so; name it yourself with --workbench ${trustKey(workbench)}, trust it with flower-pty trust, or remove the link`,
          EXIT.usage,
        );
      }
    } else {
      const raw = readConfigFile(path);
      if (Object.keys(raw).length > 0) {
        const verdict = screenProjectConfig(raw, trusted(), (key) => insideProject(opts.cwd, (raw as Record<string, unknown>)[key]));
        project = verdict.kept;
        const line = ignoredLine(path, verdict.ignored);
        if (line !== null) notes.push(line);
      }
    }
  }
  files.push(user);
  return { values: { ...fromUser, ...project, ...fromEnv }, files, notes };
}
