// The face of a run: where the child's screen goes and where keystrokes come from. The plain face
// passes the terminal through; the split view paints panes. The supervisor only sees this port.

import type { StatusView } from '../core/screen/status.js';
import type { RunShow } from '../core/picture/run-show.js';
export type { StatusView, RunShow };

export type FaceCommand = 'force-handoff' | 'hold' | 'release' | 'quit' | 'edit-document';

export interface Face {
  /** the size the child's pty should have */
  size(): { cols: number; rows: number };
  /** keys for claude, from this face's person: the run sends them through its one sink (claude-keys.ts) */
  onInput(listener: (data: string) => void): void;
  onResize(listener: (cols: number, rows: number) => void): void;
  onCommand(listener: (command: FaceCommand) => void): void;
  /** the child's output, titles already taken out */
  childOutput(data: string): void;
  /** what the run shows now (core/picture/run-show.ts): its title, status, document, a line, its child's state */
  show(show: RunShow): void;
  /** give the terminal back exactly as it was; safe to call twice */
  restore(): void;
}
