// `flower-pty trust [--workbench DIR] [--remove] [--list]`: the person says, on purpose, that this
// folder's own config may run programs and write outside the project (its claude, notify-command,
// events, log and workbench keys), as direnv's allow. What is trusted is the workbench's real path and
// its config.json's exact bytes: a changed file (a pull) needs trusting again. It prints what now applies.

import { join, resolve } from 'node:path';
import { findWorkbench, readConfigFile, userConfigPath } from '../adapters/config-file.js';
import { configHash, readTrustFile, trustFilePath, trustKey, writeTrustFile } from '../adapters/trust-store.js';
import { PROJECT_KEY_RULE, screenProjectConfig } from '../core/options/project-trust.js';
import { terminalText } from '../core/terminal-text.js';
import { EXIT, FlowerError } from '../core/errors.js';
import { ownCommandHere } from '../adapters/own-command-here.js';

export interface TrustOptions {
  workbench: string | undefined;
  remove: boolean;
  list: boolean;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  out: (line: string) => void;
  now?: () => Date;
}

export async function runTrust(o: TrustOptions): Promise<number> {
  const store = trustFilePath(userConfigPath(o.env));
  const file = readTrustFile(store);
  if (o.list) {
    const folders = Object.entries(file.folders);
    if (folders.length === 0) o.out(`no trusted folders (${store})`);
    for (const [folder, entry] of folders)
      o.out(
        `${terminalText(folder)} · config ${entry.config_sha256?.slice(0, 12) ?? '(none)'} · trusted ${terminalText(entry.trusted_at)}`,
      );
    return EXIT.ok;
  }
  const workbench = findWorkbench(o.cwd, o.env, o.workbench);
  const key = trustKey(workbench);
  if (o.remove) {
    if (!(key in file.folders)) {
      o.out(`${terminalText(key)} was not trusted`);
      return EXIT.ok;
    }
    const { [key]: _gone, ...rest } = file.folders;
    await writeTrustFile(store, { version: 1, folders: rest });
    o.out(`no longer trusted: ${terminalText(key)} (its config may again only tune the run)`);
    return EXIT.ok;
  }
  const config = join(workbench, 'config.json');
  const values = readConfigFile(config); // a malformed file is refused here, not trusted
  const hash = configHash(config);
  // What trust changes is what the same screen the runs use keeps of a trusted file: a key no trust lets a
  // project's file set (the hosts) is said to stay ignored, never to apply.
  const verdict = screenProjectConfig(values, true, () => true);
  const risky = Object.entries(verdict.kept).filter(
    ([k]) => (PROJECT_KEY_RULE as Record<string, string>)[k] !== 'always',
  );
  if (hash === null && key === resolve(workbench)) {
    throw new FlowerError(
      `nothing to trust at ${workbench}: it has no config.json (and is no symlink); a project config that tunes the run needs no trust`,
      EXIT.usage,
    );
  }
  const when = (o.now?.() ?? new Date()).toISOString();
  await writeTrustFile(store, {
    version: 1,
    folders: { ...file.folders, [key]: { config_sha256: hash, trusted_at: when } },
  });
  o.out(
    `trusted ${terminalText(key)}${hash ? ` with its config.json as it is now (sha256 ${hash.slice(0, 12)})` : ''}; recorded in ${store}`,
  );
  for (const [k, v] of risky) o.out(`  now applies: "${k}": ${terminalText(JSON.stringify(v))}`);
  for (const { key } of verdict.ignored)
    o.out(
      `  still ignored: "${terminalText(key)}" (only your own config, ~/.config/flower-pty/config.json, names the machines flower-pty reaches over ssh)`,
    );
  o.out(
    `a changed config.json is untrusted again; ${ownCommandHere(o.env as NodeJS.ProcessEnv, o.cwd)} trust --remove undoes this`,
  );
  return EXIT.ok;
}
