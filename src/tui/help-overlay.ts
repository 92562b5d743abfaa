// The key help ("prefix ?"): a centred box over everything; any key closes it.

import blessed from 'blessed';
import type { Widgets } from 'blessed';

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
    '  q         quit (ends claude cleanly)',
    `  ${prefix.padEnd(9)} send ${prefix} itself to claude`,
    '  ?         this help',
    '',
    'Everything else goes to claude untouched.',
    'In the document pane: j k space b g G scroll, Tab / Esc / q return.',
    'Any key closes this help.',
  ];
}

export function createHelpOverlay(opts: { screen: Widgets.Screen; prefix: string }): Widgets.BoxElement {
  const lines = helpText(opts.prefix);
  return blessed.box({
    parent: opts.screen,
    top: 'center',
    left: 'center',
    width: Math.max(...lines.map((l) => l.length)) + 4,
    height: lines.length + 2,
    border: 'line',
    label: ' flower-pty keys ',
    padding: { left: 1, right: 1 },
    content: lines.map((l) => blessed.escape(l)).join('\n'),
    tags: true,
    hidden: true,
  });
}
