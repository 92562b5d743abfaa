// The run server's rules for the terminals attached to one run, as tmux has them: claude's pty takes the
// size of one leading terminal, the one that typed last (or, until anyone types, the one that attached
// last), and follows that terminal's resizes; when it leaves, the size stays as it was. And while no
// terminal is attached, nobody's terminal answers claude's queries (cursor position, device attributes),
// so the server's own emulator does: a successor starting unwatched does not wait on them. Pure; the
// client is whatever the server uses to tell its connections apart.

export interface Size {
  cols: number;
  rows: number;
}

export type ClientSizeEvent<C> =
  | { type: 'attached'; client: C; size: Size | null }
  | { type: 'typed'; client: C; size: Size | null }
  | { type: 'resized'; client: C; size: Size }
  | { type: 'left'; client: C };

/** the leading terminal after `event`, and the size claude's pty must take now (null: leave it) */
export function leadAfter<C>(leader: C | null, event: ClientSizeEvent<C>): { leader: C | null; resize: Size | null } {
  switch (event.type) {
    case 'attached':
      return { leader: event.client, resize: event.size };
    case 'typed':
      return leader === event.client ? { leader, resize: null } : { leader: event.client, resize: event.size };
    case 'resized':
      return { leader, resize: leader === event.client ? event.size : null };
    case 'left':
      return { leader: leader === event.client ? null : leader, resize: null };
  }
}

/** whether the server's emulator answers claude's terminal queries: only while no terminal is attached */
export function emulatorAnswersQueries(attachedTerminals: number): boolean {
  return attachedTerminals === 0;
}
