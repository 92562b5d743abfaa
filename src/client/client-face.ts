// The face an attach client draws itself, when the server cannot draw its terminal: plain or split, the
// one module loaded only when it is needed (--plain never pays for blessed, and a terminal the server
// draws loads no face here at all: attach is a command a person waits on), wired to the run's socket.

import type { Face } from '../runtime/face.js';
import type { ClientMessage, RunInfo } from '../server/wire.js';

/** the one face module this client may draw with */
export interface Faces {
  createPlainFace?: typeof import('../faces/plain-face.js')['createPlainFace'];
  createSplitFace?: typeof import('../faces/split-face.js')['createSplitFace'];
}

export async function loadFaces(plain: boolean): Promise<Faces> {
  return plain
    ? { createPlainFace: (await import('../faces/plain-face.js')).createPlainFace }
    : { createSplitFace: (await import('../faces/split-face.js')).createSplitFace };
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
  /** "prefix s": leave for the chooser (absent: this client shows none) */
  choose?: () => void;
  /** the words that run flower-pty where this client is (the split view's help and flashes print them) */
  ownCommand: string;
}

// The face for the run the server welcomed: keys, commands and sizes go to the server; the face's own
// size, if it is not the one the hello gave, is sent at once.
export function drawFace(welcome: RunInfo, { createPlainFace, createSplitFace }: Faces, w: FaceWiring): Face {
  const documentPath = welcome.status?.documentPath ?? w.documentPath;
  let face: Face;
  if (createPlainFace) {
    face = createPlainFace({ stdin: w.stdin, stdout: w.stdout, stderr: w.stderr });
    const key = w.detachKey;
    face.onInput((data) => {
      if (key !== null && data === key) w.detach();
      else w.send({ t: 'input', data });
    });
  } else {
    face = createSplitFace!({
      stdin: w.stdin,
      stdout: w.stdout,
      stderr: w.stderr,
      env: w.env,
      documentPath,
      ownCommand: w.ownCommand,
      onDetach: w.detach,
      ...(w.choose ? { onChoose: w.choose } : {}),
    });
    face.onInput((data) => w.send({ t: 'input', data }));
  }
  face.onResize((cols, rows) => w.send({ t: 'resize', cols, rows }));
  face.onCommand((command) => w.send({ t: 'command', command }));
  const size = face.size();
  if (size.cols !== w.helloSize.cols || size.rows !== w.helloSize.rows) w.send({ t: 'resize', ...size });
  return face;
}
