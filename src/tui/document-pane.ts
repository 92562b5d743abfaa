// The document pane: the handoff document (or, until there is one, the plan) as styled, wrapped,
// scrollable text in a bordered blessed box labelled with the file's path and the focus mark.

import type { Widgets } from 'blessed';
import { documentLines, previewLines, type PreviewInput, type StyledLine } from '../core/screen/document-view.js';
import type { PaneCommand } from '../core/screen/keymap.js';
import type { Rect } from '../core/screen/layout.js';
import { taggedLines } from './styled-text.js';
import { setQuietLabel } from './quiet-label.js';
import { box as blessedBox } from './blessed-parts.js';
import { terminalText } from '../core/terminal-text.js';
import { wrapByColumns } from './column-wrap.js';

export interface DocumentPane {
  readonly box: Widgets.BoxElement;
  /** the file shown, once a document has been shown */
  readonly path: string | null;
  /** a document's text, or null when the file is gone; the scroll stays when it is the same file */
  showDocument(path: string, text: string | null): void;
  /** what will happen; ignored once a document has been shown (false: nothing changed) */
  showPlan(input: PreviewInput): boolean;
  showNote(text: string): void;
  /** relabel: the focus mark, the border colour, the path cut to the pane's width */
  setFocus(focused: boolean): void;
  scroll(command: PaneCommand): void;
  /** the plain text currently shown (tests read it) */
  text(): string;
}

// blessed's setContent(text, noClear), whose second argument its typings leave out.
interface SetContentUncleared {
  setContent(text: string, noClear: boolean): void;
}

export function shortPath(path: string, room: number): string {
  return path.length <= room ? path : `…${path.slice(path.length - Math.max(1, room - 1))}`;
}

/** `at`: where the box starts (a face's first layout) */
export function createDocumentPane(opts: { screen: Widgets.Screen; noColor: boolean; at?: Rect }): DocumentPane {
  const box = blessedBox({
    parent: opts.screen,
    ...opts.at,
    border: 'line',
    tags: true,
    wrap: true,
    scrollable: true,
    alwaysScroll: true,
    scrollbar: { ch: ' ', style: { inverse: true } },
  });
  wrapByColumns(box);
  let shown: readonly StyledLine[] = [];
  let shownText = '';
  let path: string | null = null;
  let focused = false;

  /** false when the pane already shows exactly this (nothing to draw) */
  function show(lines: readonly StyledLine[], keepScroll: boolean): boolean {
    const text = taggedLines(lines, opts.noColor);
    shown = lines;
    if (keepScroll && text === shownText) return false;
    shownText = text;
    const position = box.getScroll();
    // Without blessed's clear of the box's area first: the box is drawn whole over that area at the next
    // render anyway (it never shrinks to its text), and a box moved is cleared where it was by the move.
    (box as unknown as SetContentUncleared).setContent(text, true);
    if (keepScroll) box.scrollTo(position);
    else box.setScroll(0);
    return true;
  }

  function label(): void {
    const room = Math.max(8, (typeof box.width === 'number' ? box.width : 40) - 8);
    setQuietLabel(box, ` ${focused ? '▶ ' : ''}${path ? shortPath(terminalText(path), room) : 'handoff document'} `);
    box.style.border = opts.noColor ? {} : { fg: focused ? 'cyan' : 'default' };
  }

  return {
    box,
    get path() {
      return path;
    },
    showDocument(next, text) {
      const same = next === path;
      path = next || path;
      label();
      show(
        text === null
          ? [{ style: 'flag', text: `! the document ${next} is not on disk (deleted or moved?)` }]
          : documentLines(text),
        same,
      );
    },
    showPlan(input) {
      // A status update comes several times a second while claude works: the plan is drawn again only
      // when its text changed (each drawing is a whole render of the split view).
      if (path !== null) return false;
      return show(previewLines(input), true);
    },
    showNote(text) {
      show([{ style: 'hint', text }], false);
    },
    setFocus(f) {
      focused = f;
      label();
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
