// The key help ("prefix ?"): a centred box over everything; any key closes it. Its box is made the
// first time it is shown: most split views never show it, and every one is drawn by the run server
// for each attach, where making it was a tenth of the face's setup. The way back after a detach is named as
// the person types flower-pty (`own`: adapters/own-command-here.ts), and the box still fits 80 columns.

import type { Widgets } from 'blessed';
import { box, escapeTags } from './blessed-parts.js';
import { textWidth } from '../core/screen/char-width.js';
import { terminalText } from '../core/terminal-text.js';

export interface HelpOverlay {
  readonly hidden: boolean;
  /** over everything else */
  show(): void;
  hide(): void;
}

// The box is its widest line and 4 more (border and padding): no line wider than this keeps it within 80
// (widths in the terminal's cells: a folder's name may be in wide characters).
export const HELP_LINE_MAX = 76;
const KEY_COLUMN = ' '.repeat(12);

/** "d" and the way back: on its line when it fits, else the command on a line of its own beneath, else (a
 * path too long for any line) pointed at the detach message, which names it whole with the run's id */
function detachLines(own: string): string[] {
  // the bin's path is not ours to trust (a folder's name may hold a control): shown inert, measured as shown
  const back = `${terminalText(own)} attach`;
  const inline = `  d         detach (the run goes on; ${back})`;
  if (textWidth(inline) <= HELP_LINE_MAX) return [inline];
  const beneath = `${KEY_COLUMN}${back}`;
  if (textWidth(beneath) <= HELP_LINE_MAX) return ['  d         detach (the run goes on); back with', beneath];
  return ['  d         detach (the run goes on; its attach command is printed then)'];
}

/** the help's lines; `own`: the words that run flower-pty where the person is (`flower-pty`, `npx flower-pty`,
 * `node /path/bin/flower-pty.js`) */
export function helpText(prefix: string, own: string): string[] {
  return [
    `Keys: press ${prefix}, then`,
    '',
    '  Tab       switch focus: session / document',
    '  j k ↑ ↓   scroll the document a line',
    '  PgUp PgDn scroll the document a page',
    '  e         open the document in $VISUAL / $EDITOR',
    '  h         hand off now',
    '  p         hold / release the next session',
    '  z         show / hide the document pane',
    ...detachLines(own),
    '  s         switch to another run (the chooser of every run)',
    '  q         quit (ends claude cleanly)',
    `  ${prefix.padEnd(9)} send ${prefix} itself to claude`,
    '  ?         this help',
    '',
    'Everything else goes to claude untouched.',
    'In the document pane: j k space b g G scroll, Tab / Esc / q return.',
    'Any key closes this help.',
  ];
}

function helpBox(screen: Widgets.Screen, prefix: string, own: string): Widgets.BoxElement {
  const lines = helpText(prefix, own);
  return box({
    parent: screen,
    top: 'center',
    left: 'center',
    width: Math.max(...lines.map(textWidth)) + 4,
    height: lines.length + 2,
    border: 'line',
    label: ' flower-pty keys ',
    padding: { left: 1, right: 1 },
    content: lines.map((l) => escapeTags(l)).join('\n'),
    tags: true,
    hidden: true,
  });
}

export function createHelpOverlay(opts: { screen: Widgets.Screen; prefix: string; own: string }): HelpOverlay {
  let box: Widgets.BoxElement | null = null;
  return {
    get hidden() {
      return box === null || box.hidden;
    },
    show() {
      box ??= helpBox(opts.screen, opts.prefix, opts.own);
      box.show();
      box.setFront();
    },
    hide() {
      box?.hide();
    },
  };
}
