// The folders whose own config the person trusted on purpose (`flower-pty trust`), kept in the user's
// config folder, never in a project: $XDG_CONFIG_HOME/flower-pty/trusted.json (0600). An entry is the
// workbench's real path (symlinks resolved) and the SHA-256 of its config.json as it was when trusted,
// so a config changed afterwards (a `git pull`) is untrusted again until looked at, as direnv does.

import { readFileSync, realpathSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { EXIT, FlowerError } from '../core/errors.js';
import { writeFileAtomic } from './atomic-file.js';
import { sha256Hex } from './lazy-crypto.js';

export interface TrustEntry {
  /** the config file's SHA-256 when trusted; null: there was none (only the folder, e.g. a linked .flower) */
  config_sha256: string | null;
  trusted_at: string;
}

export interface TrustFile {
  version: 1;
  folders: Record<string, TrustEntry>;
}

export function trustFilePath(userConfigFile: string): string {
  return join(dirname(userConfigFile), 'trusted.json');
}

/** the key a workbench is trusted under: its real path, or the absolute one while it does not exist */
export function trustKey(workbench: string): string {
  try {
    return realpathSync(workbench);
  } catch {
    return resolve(workbench);
  }
}

/** the SHA-256 of a config file's bytes, null when there is none */
export function configHash(path: string): string | null {
  try {
    return sha256Hex(readFileSync(path));
  } catch {
    return null;
  }
}

export function readTrustFile(path: string): TrustFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, folders: {} };
    throw new FlowerError(
      `${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      EXIT.usage,
    );
  }
  try {
    const data = JSON.parse(text) as Partial<TrustFile>;
    if (data.version !== 1 || typeof data.folders !== 'object' || data.folders === null || Array.isArray(data.folders))
      throw new Error('shape');
    const folders: Record<string, TrustEntry> = {};
    for (const [key, entry] of Object.entries(data.folders)) {
      const e = entry as Partial<TrustEntry> | null;
      if (e && (typeof e.config_sha256 === 'string' || e.config_sha256 === null) && typeof e.trusted_at === 'string') {
        folders[key] = { config_sha256: e.config_sha256, trusted_at: e.trusted_at };
      }
    }
    return { version: 1, folders };
  } catch {
    throw new FlowerError(
      `${path}: not a flower-pty trust file ({"version":1,"folders":{…}}); fix it, or remove it and trust your folders again`,
      EXIT.usage,
    );
  }
}

/** trusted: this workbench was trusted and its config is byte for byte what it was then */
export function isTrusted(file: TrustFile, workbench: string, configPath: string): boolean {
  const entry = file.folders[trustKey(workbench)];
  return entry !== undefined && entry.config_sha256 === configHash(configPath);
}

export async function writeTrustFile(path: string, file: TrustFile): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(file, null, 2) + '\n');
  await chmod(path, 0o600);
}
