// The face an attach client draws itself, when the server cannot draw its terminal: plain or split, the
// one module loaded only when it is needed (--plain never pays for blessed, and a terminal the server
// draws loads no face here at all: attach is a command a person waits on), wired to the run's socket.

import type { Host } from '../hosts/host.js';
import type { ClientMessage, RunInfo } from '../server/wire.js';

/** the one face module this client may draw with */
export interface Faces {
  createPlainHost?: (typeof import('../hosts/plain-host.js'))['createPlainHost'];
  createSplitHost?: (typeof import('../hosts/split-host.js'))['createSplitHost'];
}

export async function loadFaces(plain: boolean): Promise<Faces> {
  return plain ? { createPlainHost: (await import('../hosts/plain-host.js')).createPlainHost } : { createSplitHost: (await import('../hosts/split-host.js')).createSplitHost };
}

export interface FaceWiring {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: Record<string, string | undefined>;
  /** --plain: the control byte that detaches when pressed alone */
  detachKey: string | null;
  /** the step's document, when the server has not named one yet */
  documentPath: string | null;
  /** the size the hello gave (the face may find another) */
  helloSize: { cols: number; rows: number };
  send: (message: ClientMessage) => void;
  detach: () => void;
}

// The face for the run the server welcomed: keys, commands and sizes go to the server; the face's own
// size, if it is not the one the hello gave, is sent at once.
export function drawFace(welcome: RunInfo, { createPlainHost, createSplitHost }: Faces, w: FaceWiring): Host {
  const documentPath = welcome.status?.documentPath ?? w.documentPath;
  let host: Host;
  if (createPlainHost) {
    host = createPlainHost({ stdin: w.stdin, stdout: w.stdout, stderr: w.stderr });
    const key = w.detachKey;
    host.onInput((data) => {
      if (key !== null && data === key) w.detach();
      else w.send({ t: 'input', data });
    });
  } else {
    host = createSplitHost!({ stdin: w.stdin, stdout: w.stdout, stderr: w.stderr, env: w.env, documentPath, onDetach: w.detach });
    host.onInput((data) => w.send({ t: 'input', data }));
  }
  host.onResize((cols, rows) => w.send({ t: 'resize', cols, rows }));
  host.onCommand((command) => w.send({ t: 'command', command }));
  const size = host.size();
  if (size.cols !== w.helloSize.cols || size.rows !== w.helloSize.rows) w.send({ t: 'resize', ...size });
  return host;
}
