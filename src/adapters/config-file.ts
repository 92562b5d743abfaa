// Settings from outside the command line: the project's <workbench>/config.json, the user's
// $XDG_CONFIG_HOME/flower-pty/config.json and FLOWER_PTY_* variables. Flags win over env, env over
// project, project over user. A bad file or value is one line naming where it came from (exit 2).

import { readBounded, ReadRefused } from './bounded-read.js';
import { lstatSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { EXIT, FlowerError } from '../core/errors.js';
import {
  configRows,
  DEFAULT_WORKBENCH,
  HOSTS_KEY,
  type ConfigKey,
  type ConfigValues,
  type OptionRow,
} from '../core/options/options-table.js';
import { checkOption, type OptionValue } from '../core/options/option-value.js';
import { ignoredLine, screenProjectConfig } from '../core/options/project-trust.js';
import { hostNameProblem } from '../core/hosts/host-name.js';
import { isTrusted, readTrustFile, trustFilePath, trustKey } from './trust-store.js';
import { terminalText } from '../core/terminal-text.js';

export type { ConfigKey, ConfigValues };

// Every key a file may hold, with its type, range and FLOWER_PTY_* variable: the options table's rows that
// have a config key. Unknown keys are refused: a typo that is silently ignored is a setting that silently
// does not apply.
const CONFIG_ROWS: ReadonlyMap<string, OptionRow> = new Map(configRows().map((row) => [row.configKey!, row]));

function setValue(into: ConfigValues, key: string, value: OptionValue): void {
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
    // (the boundary shows the controls; the zero-width characters it leaves to text are shown here too)
    const why = terminalText(error instanceof Error ? error.message : String(error)).replace(
      /[\u200b-\u200d\u2060-\u2064\ufeff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    throw new FlowerError(`${source}: not valid JSON (${why}); fix or remove the file`, EXIT.usage);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new FlowerError(
      `${source}: expected a JSON object like {"window": "200k"}; fix or remove the file`,
      EXIT.usage,
    );
  }
  const values: ConfigValues = {};
  for (const [key, raw] of Object.entries(data)) {
    if (key === HOSTS_KEY) {
      values.hosts = checkHosts(raw, source);
      continue;
    }
    const row = CONFIG_ROWS.get(key);
    if (row === undefined)
      throw new FlowerError(
        `${source}: unknown key "${key}" (known: ${[...CONFIG_ROWS.keys(), HOSTS_KEY].join(', ')})`,
        EXIT.usage,
      );
    const checked = checkOption(row, raw);
    if ('problem' in checked) throw new FlowerError(`${source}: "${key}" ${checked.problem}`, EXIT.usage);
    setValue(values, key, checked.value);
  }
  return values;
}

// `"hosts": ["box", "me@build"]`: each name as ssh takes it, none that ssh could read as an option.
function checkHosts(raw: unknown, source: string): string[] {
  if (!Array.isArray(raw) || !raw.every((h) => typeof h === 'string'))
    throw new FlowerError(
      `${source}: "${HOSTS_KEY}" expects a list of ssh host names, like ["box", "me@build"]`,
      EXIT.usage,
    );
  for (const host of raw as string[]) {
    const problem = hostNameProblem(host);
    if (problem !== null) throw new FlowerError(`${source}: "${HOSTS_KEY}": ${problem}`, EXIT.usage);
  }
  return raw as string[];
}

// A missing file is no configuration; an unreadable or malformed one is an error.
// A config file is a few lines of JSON.
const CONFIG_LIMIT = 1024 * 1024;

export function readConfigFile(path: string): ConfigValues {
  let text: string;
  try {
    text = readBounded(path, CONFIG_LIMIT).toString('utf8');
  } catch (error) {
    if (error instanceof ReadRefused)
      throw new FlowerError(`${path}: ${error.why}; make it a small JSON file, or remove it`, EXIT.usage);
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: the workbench is a file; the run says so about the workbench, not about its config
    if (code === 'ENOENT' || code === 'ENOTDIR') return {};
    if (code === 'EISDIR')
      throw new FlowerError(`${path}: is a folder, not a config file; remove it or make it a JSON file`, EXIT.usage);
    throw new FlowerError(`${path}: cannot be read (${code ?? String(error)})`, EXIT.usage);
  }
  return parseConfigText(text, path);
}

// Switches that are variables only (no flag, no config key): checked with the rest, read where used.
const ENV_SWITCHES = ['FLOWER_PTY_NO_NATIVE'] as const;

/** a variable-only switch: unset or empty is false; a word that is not true or false is a one-line error */
export function envSwitch(
  env: Readonly<Record<string, string | undefined>>,
  name: (typeof ENV_SWITCHES)[number],
): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return false;
  const checked = checkOption({ name, type: 'boolean', help: '' }, raw);
  if ('problem' in checked) throw new FlowerError(`${name} ${checked.problem}`, EXIT.usage);
  return checked.value === true;
}

export function configFromEnv(env: Readonly<Record<string, string | undefined>>): ConfigValues {
  const values: ConfigValues = {};
  for (const name of ENV_SWITCHES) envSwitch(env, name);
  for (const [key, row] of CONFIG_ROWS) {
    // FLOWER_PTY_CLAUDE is read where claude is resolved, so its errors name the variable.
    if (row.env === undefined || key === 'claude') continue;
    const value = envValue(env, row);
    if (value !== undefined) setValue(values, key, value);
  }
  return values;
}

// One variable of one row: unset or empty is not given; a bad value is a one-line error naming the variable.
function envValue(env: Readonly<Record<string, string | undefined>>, row: OptionRow): OptionValue | undefined {
  const raw = row.env === undefined ? undefined : env[row.env];
  if (raw === undefined || raw === '') return undefined;
  const checked = checkOption(row, raw);
  if ('problem' in checked) throw new FlowerError(`${row.env} ${checked.problem}`, EXIT.usage);
  return checked.value;
}

export function userConfigPath(env: Readonly<Record<string, string | undefined>>): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'flower-pty', 'config.json');
}

/** `--workbench ''` would resolve to the project folder itself and scatter the lineage there */
export const EMPTY_WORKBENCH =
  '--workbench needs a folder, got an empty value (it would put the lineage in the project folder itself): ' +
  'give a path such as --workbench .flower, or --no-workbench';

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
// The project file is screened (core/options/project-trust.ts) unless the person trusted the folder: it may
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
    const workbench = resolve(opts.cwd, named ?? DEFAULT_WORKBENCH);
    const path = join(workbench, 'config.json');
    files.push(path);
    const trusted = () => isTrusted(readTrustFile(trustFilePath(user)), workbench, path);
    if (named === undefined && isSymlink(workbench) && !trusted()) {
      if (opts.refuseLinkedWorkbench) {
        throw new FlowerError(
          `${workbench} is a symlink to ${trustKey(workbench)}: a project's .flower is not followed elsewhere unless you say so; ` +
            `name it yourself with --workbench ${trustKey(workbench)}, trust it with flower-pty trust, or remove the link`,
          EXIT.usage,
        );
      }
    } else {
      const raw = readConfigFile(path);
      if (Object.keys(raw).length > 0) {
        const verdict = screenProjectConfig(raw, trusted(), (key) =>
          insideProject(opts.cwd, (raw as Record<string, unknown>)[key]),
        );
        project = verdict.kept;
        const line = ignoredLine(path, verdict.ignored);
        if (line !== null) notes.push(line);
      }
    }
  }
  files.push(user);
  return { values: { ...fromUser, ...project, ...fromEnv }, files, notes };
}

/** the machines of the user's own config (`hosts`), for `ls --all-hosts` and the web face */
export function configuredHosts(env: Readonly<Record<string, string | undefined>>): readonly string[] {
  return readConfigFile(userConfigPath(env)).hosts ?? [];
}

// The workbench a run started in `cwd` would use, for every command that looks for one (attach, status,
// kill, trust; the report through loadConfig, as it wants the events file too): the flag, else the merged
// settings (FLOWER_PTY_WORKBENCH, the project's config.json, the user's), else .flower.
export function findWorkbench(cwd: string, env: Readonly<Record<string, string | undefined>>, flag?: string): string {
  if (flag !== undefined) {
    if (flag.trim() === '') throw new FlowerError(EMPTY_WORKBENCH, EXIT.usage);
    return resolve(cwd, flag);
  }
  return resolve(cwd, loadConfig({ cwd, env }).values.workbench ?? DEFAULT_WORKBENCH);
}
