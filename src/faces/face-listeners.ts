// The three things a face hears from its person (keys, sizes, commands) as Face's listener ports,
// with one emit each: shared by the split view and the run server's face.

import type { Face, FaceCommand } from '../runtime/face.js';

export interface FaceListeners {
  /** onInput, onResize, onCommand: spread into a Face */
  ports: Pick<Face, 'onInput' | 'onResize' | 'onCommand'>;
  input(data: string): void;
  resize(cols: number, rows: number): void;
  command(command: FaceCommand): void;
}

export function createFaceListeners(): FaceListeners {
  const input: Array<(data: string) => void> = [];
  const resize: Array<(cols: number, rows: number) => void> = [];
  const command: Array<(command: FaceCommand) => void> = [];
  return {
    ports: {
      onInput: (listener) => void input.push(listener),
      onResize: (listener) => void resize.push(listener),
      onCommand: (listener) => void command.push(listener),
    },
    input: (data) => input.forEach((listener) => listener(data)),
    resize: (cols, rows) => resize.forEach((listener) => listener(cols, rows)),
    command: (c) => command.forEach((listener) => listener(c)),
  };
}
