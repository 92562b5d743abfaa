// `flower-pty attach [ID]`: find the live run (the id, else this folder's workbench, else the only
// one) and attach this terminal to it, in the split view or --plain, until detach or the run's end. With
// no id, several runs and none this folder's, a terminal gets the chooser of every run (choose-run.ts).

import { certainSocket, openSocketDir } from '../server/socket-dir.js';
import { attachTerminal, plainDetachKey } from '../client/attach-client.js';
import { connectRun } from '../client/run-socket.js';
import { pickRun } from '../core/server/run-list.js';
import { EXIT, FlowerError } from '../core/errors.js';
import type { AttachResult } from '../client/attach-outcome.js';
import type { Socket } from 'node:net';

export interface AttachCommandOptions {
  id: string | undefined;
  plain: boolean;
  detachKey: string | undefined;
  /** --workbench: the workbench whose run to pick without an id (else found as a run finds it) */
  workbench: string | undefined;
  /** --choose: the chooser of every run, whatever this folder's run is */
  choose?: boolean;
}

export async function runAttach(o: AttachCommandOptions): Promise<number> {
  const detachKey = plainDetachKey(o.detachKey);
  // HOST:ID: the host's own attach through `ssh -t` (a run id never holds a colon)
  if (o.id?.includes(':')) {
    const { attachOnHost, hostTarget } = await import('./host-run.js');
    return attachOnHost(hostTarget(o.id)!, { plain: o.plain, detachKey: o.detachKey }, process.env);
  }
  const cwd = process.cwd();
  const dir = await openSocketDir(process.env);
  const terminal = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  const chooser = () =>
    import('./choose-run.js').then(({ chooseRun }) =>
      chooseRun({ dir, cwd, plain: o.plain, detachKey, detachKeyName: o.detachKey, env: process.env }),
    );
  if (o.choose) {
    if (!terminal)
      throw new FlowerError(
        `attach --choose needs a terminal (stdin and stdout): ` +
          `${(await import('../adapters/own-command-here.js')).ownCommandHere(process.env, cwd)} ls lists the runs`,
        EXIT.usage,
      );
    return chooser();
  }
  // "prefix s" in the split view leaves the run for the chooser: this terminal shows it, then the run chosen
  let chose = false;
  const seen = (r: AttachResult) => void (chose = r.kind === 'detached' && r.why === 'choose');
  const attach = async (socketPath: string, socket?: Socket): Promise<number> => {
    const code = await attachTerminal({
      socketPath,
      ...(socket ? { socket } : {}),
      plain: o.plain,
      detachKey,
      documentPath: null,
      chooser: terminal,
      ...(terminal ? { elsewhereDir: dir } : {}),
      seen,
    });
    return chose ? chooser() : code;
  };
  // When the socket is certain (the id's, or the only one), the attach says hello there at once: no server is
  // asked for its run first, a round trip before the first frame. A socket nobody listens on (a server that
  // was killed) goes the long way below, which sweeps it and says which runs there are.
  const certain = await certainSocket(dir, o.id);
  const socket = certain === null ? null : await connectRun(certain).catch(() => null);
  if (certain !== null && socket !== null) return attach(certain, socket);
  // (loaded only here: an attach to a certain socket never lists the runs)
  const { listRuns, resolveRun } = await import('../server/run-registry.js');
  const { runs } = await listRuns(dir);
  // The workbench only tells several runs apart: with an id, or a single run, it is not looked for, and the
  // config files it may be named in are not loaded (attach is a command a person waits on).
  const tellApart = o.id === undefined && runs.length > 1;
  const workbench = tellApart
    ? (await import('../adapters/config-file.js')).findWorkbench(cwd, process.env, o.workbench)
    : null;
  const { ownCommandHere } = await import('../adapters/own-command-here.js');
  const want = {
    ...(o.id !== undefined ? { id: o.id } : {}),
    cwd,
    workbench,
    command: 'attach',
    own: ownCommandHere(process.env, cwd),
  };
  // No id and the folder picks no one run: in a terminal, the chooser of every run; without one, the refusal.
  if (o.id === undefined && runs.length > 1 && terminal && 'problem' in pickRun(runs, want)) return chooser();
  const run = resolveRun(runs, want);
  return attach(run.socket);
}
