// The document pane: the handoff document (or the plan before the first one) as styled, wrapped,
// scrollable text in a bordered blessed box labelled with the file's path.

import blessed from 'blessed';
import type { Widgets } from 'blessed';
import type { StyledLine } from '../core/document-view.js';
import type { PaneCommand } from '../core/keymap.js';
import { taggedLines } from './styled-text.js';

export interface DocumentPane {
  readonly box: Widgets.BoxElement;
  /** new content; `keepScroll` when it is the same document edited, not a new one */
  show(lines: readonly StyledLine[], label: string, keepScroll: boolean): void;
  scroll(command: PaneCommand): void;
  /** the plain text currently shown (tests read it) */
  text(): string;
}

export function createDocumentPane(opts: { screen: Widgets.Screen; noColor: boolean }): DocumentPane {
  const box = blessed.box({
    parent: opts.screen,
    border: 'line',
    tags: true,
    wrap: true,
    scrollable: true,
    alwaysScroll: true,
    scrollbar: { ch: ' ', style: { inverse: true } },
  });
  let shown: readonly StyledLine[] = [];

  return {
    box,
    show(lines, label, keepScroll) {
      const position = box.getScroll();
      shown = lines;
      box.setLabel(` ${label} `);
      box.setContent(taggedLines(lines, opts.noColor));
      if (keepScroll) box.scrollTo(position);
      else box.setScroll(0);
    },
    scroll(command) {
      const page = Math.max(1, (box.height as number) - 3);
      if (command === 'scroll-down') box.scroll(1);
      else if (command === 'scroll-up') box.scroll(-1);
      else if (command === 'page-down') box.scroll(page);
      else if (command === 'page-up') box.scroll(-page);
      else if (command === 'top') box.setScroll(0);
      else if (command === 'bottom') box.setScrollPerc(100);
    },
    text() {
      return shown.map((l) => l.text).join('\n');
    },
  };
}
