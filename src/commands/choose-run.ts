// `flower-pty attach` with no id, in a terminal, when the folder does not pick one run: the chooser
// (client/run-chooser.ts) with what its acts mean here. A run on this machine is joined as `attach ID`
// joins it, one on a host of the person's config through `ssh -t` as `attach HOST:ID` is (the hosts are
// asked as `ls --host` asks them, each on its own); `x` is `kill`; `n` starts a run as `flower-pty
// --detach` does, in the folder asked (or a new git worktree of it), then joins it.

import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { homedir } from 'node:os';
import { attachOutcome } from '../client/attach-outcome.js';
import { ownCommandHere } from '../adapters/own-command-here.js';
import { attachClient } from '../client/attach-client.js';
import { addWorktree } from './new-worktree.js';
import { tellChooserListed } from '../client/run-socket.js';
import { runChooser, type ChooserEntry } from '../client/run-chooser.js';
import { listRuns } from '../server/run-registry.js';
import { previewRun } from './run-preview.js';
import { terminalText } from '../core/terminal-text.js';
import type { NewRunForm } from '../core/chooser/chooser-keys.js';

export interface ChooseOptions {
  dir: string;
  cwd: string;
  plain: boolean;
  detachKey: string | null;
  /** --detach-key as given, for a remote attach */
  detachKeyName: string | undefined;
  env: NodeJS.ProcessEnv;
}

// A new run: the folder (made absolute from where the chooser was opened), a new worktree of it when one
// is named (beside it, `<folder>-<name>`, on a new branch of that name), then `flower-pty --detach -- PROMPT`
// there; its first line is the run's id.
async function startRun(form: NewRunForm, o: ChooseOptions): Promise<{ run: ChooserEntry } | { problem: string }> {
  let folder = resolve(o.cwd, form.folder.trim());
  const name = form.worktree.trim();
  if (name !== '') {
    const made = await addWorktree(folder, name, o.env);
    if ('problem' in made) return made;
    folder = made.folder;
  }
  const bin = process.argv[1]!;
  const started = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    const child = spawn(
      process.execPath,
      [bin, '--detach', ...(form.prompt.trim() !== '' ? ['--', form.prompt] : [])],
      { cwd: folder, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (e) => done({ code: 1, stdout, stderr: e.message }));
    child.on('close', (code) => done({ code: code ?? 1, stdout, stderr }));
  });
  const id = started.stdout.trim().split('\n')[0] ?? '';
  if (started.code !== 0 || !/^[a-z0-9]{6}$/.test(id))
    return {
      problem: `the new run did not start: ${terminalText(started.stderr.trim().split('\n').at(-1) ?? `exit ${started.code}`)}`,
    };
  const listed = (await listRuns(o.dir)).runs.find((r) => r.id === id);
  if (!listed) return { problem: `run ${id} started but is not listed; ${ownCommandHere(o.env, o.cwd)} attach ${id}` };
  return { run: { ...listed, host: null } };
}

/** the chooser on this terminal until the person closes it */
export async function chooseRun(o: ChooseOptions): Promise<number> {
  const { configuredHosts } = await import('../adapters/config-file.js');
  const hosts = configuredHosts(o.env);
  const told = new Set<string>();
  return runChooser({
    cwd: o.cwd,
    home: o.env.HOME ?? homedir(),
    command: ownCommandHere(o.env, o.cwd),
    hosts,
    listLocal: async () => {
      const { runs } = await listRuns(o.dir);
      // each run listed the first time is told, so that its split view is ready before it is picked
      for (const r of runs)
        if (!told.has(r.socket)) {
          told.add(r.socket);
          tellChooserListed(r.socket, o.env.TERM);
        }
      return runs;
    },
    askHost: async (host) => {
      const { askHosts } = await import('../server/host-ls.js');
      const [answer] = await askHosts([host], o.env);
      return answer ?? { problem: `${host}: no answer` };
    },
    join: async (entry) => {
      if (entry.host !== null) {
        const { attachOnHost } = await import('./host-run.js');
        await attachOnHost({ host: entry.host, id: entry.id }, { plain: o.plain, detachKey: o.detachKeyName }, o.env);
        return `left run ${terminalText(entry.id)} on ${terminalText(entry.host)}`;
      }
      // "prefix s" there comes back here as a detach does
      const result = await attachClient({
        socketPath: entry.socket!,
        plain: o.plain,
        detachKey: o.detachKey,
        documentPath: null,
        chooser: true,
        elsewhereDir: o.dir,
        env: o.env,
        stdin: process.stdin,
        stdout: process.stdout,
        stderr: process.stderr,
      });
      return attachOutcome(result, ownCommandHere(o.env, process.cwd())).lines.join(' · ') || null;
    },
    end: async (entry) => {
      const { runKill } = await import('./kill.js');
      const lines: string[] = [];
      try {
        await runKill({
          id: entry.host === null ? entry.id : `${entry.host}:${entry.id}`,
          cwd: o.cwd,
          env: o.env,
          out: (l) => lines.push(l),
        });
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
      return lines.join(' · ');
    },
    start: (form) => startRun(form, o),
    // this machine's runs only: a host's screen would need its socket forwarded
    preview: (entry, changed) => (entry.host === null && entry.socket ? previewRun(entry.socket, changed) : null),
    stdin: process.stdin,
    stdout: process.stdout,
  });
}
