// The key help ("prefix ?"): a centred box over everything; any key closes it. Its box is made the
// first time it is shown: most split views never show it, and every one is drawn by the run server
// for each attach, where making it was a tenth of the face's setup.

import type { Widgets } from 'blessed';
import { box, escapeTags } from './blessed-parts.js';

export interface HelpOverlay {
  readonly hidden: boolean;
  /** over everything else */
  show(): void;
  hide(): void;
}

export function helpText(prefix: string): string[] {
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
    '  d         detach (the run goes on; flower-pty attach)',
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

function helpBox(screen: Widgets.Screen, prefix: string): Widgets.BoxElement {
  const lines = helpText(prefix);
  return box({
    parent: screen,
    top: 'center',
    left: 'center',
    width: Math.max(...lines.map((l) => l.length)) + 4,
    height: lines.length + 2,
    border: 'line',
    label: ' flower-pty keys ',
    padding: { left: 1, right: 1 },
    content: lines.map((l) => escapeTags(l)).join('\n'),
    tags: true,
    hidden: true,
  });
}

export function createHelpOverlay(opts: { screen: Widgets.Screen; prefix: string }): HelpOverlay {
  let box: Widgets.BoxElement | null = null;
  return {
    get hidden() {
      return box === null || box.hidden;
    },
    show() {
      box ??= helpBox(opts.screen, opts.prefix);
      box.show();
      box.setFront();
    },
    hide() {
      box?.hide();
    },
  };
}
