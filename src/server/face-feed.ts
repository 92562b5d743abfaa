// What a face does with each message of the run: the one mapping from the wire's server messages to
// a Face's calls, shared by a client that draws its own terminal (stream mode) and by the server when
// it draws a client's terminal itself (direct mode, as tmux does).

import type { Face } from '../runtime/face.js';
import type { ServerMessage } from './wire.js';
import { isRunShow } from '../core/picture/run-show.js';

// How a freshly attached face wipes what its terminal showed before the first paint: the split
// view's emulator takes a full reset; a real terminal (plain) is homed and cleared, not reset. The
// terminal that started the run keeps what flower-pty printed there (-v): claude has hardly drawn yet.
const SPLIT_CLEAR = '\u001bc';
const PLAIN_CLEAR = '\u001b[0m\u001b[?25h\u001b[H\u001b[2J\u001b[3J';

export function paintPrefix(face: 'split' | 'plain', starter: boolean): string {
  if (face === 'split') return SPLIT_CLEAR;
  return starter ? '' : PLAIN_CLEAR;
}

/** passes one message to the face; `welcome`, `refused`, `info`, `bye` and `edit` are the caller's own */
export function feedFace(face: Face, message: ServerMessage, prefix: string): void {
  switch (message.t) {
    case 'screen':
      face.childOutput(prefix + message.data);
      return;
    case 'output':
      face.childOutput(message.data);
      return;
    default:
      // what the run shows goes to the face as it came; the rest (`welcome`, `bye`…) is the caller's
      if (isRunShow(message)) face.show(message);
      return;
  }
}
