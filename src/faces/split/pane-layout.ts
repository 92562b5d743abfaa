// Where the split view's panes sit and which has the keys: the layout (core/screen/layout.ts) for the outer
// screen's size with the document shown or hidden, the focus, and the panes' labels and borders that
// show it. A new inner size resizes both sides: the emulator here, the pty through the supervisor
// (docs/libraries.md §3).

import type { Widgets } from 'blessed';

import type { Focus } from '../../core/screen/keymap.js';
import type { SessionPane } from '../../tui/session-pane.js';
import type { DocumentPane } from '../../tui/document-pane.js';
import { computeLayout, type Layout } from '../../core/screen/layout.js';
import { setQuietLabel } from '../../tui/quiet-label.js';
import { terminalText } from '../../core/terminal-text.js';

export interface PaneLayout {
  readonly layout: Layout;
  readonly focus: Focus;
  /** lays the panes out again for the screen's size */
  apply(): void;
  /** the labels again (claude's title changed) */
  labels(): void;
  /** Tab: the keys to the other pane (showing the document first when it is hidden) */
  switchFocus(): void;
  toggleDocument(): void;
}

export function createPaneLayout(o: {
  screen: Widgets.Screen;
  pane: SessionPane;
  documentPane: DocumentPane;
  statusBox: Widgets.BoxElement;
  noColor: boolean;
  childTitle: () => string;
  /** after the panes moved, before a new inner size goes out */
  refreshStatus: () => void;
  resized: (cols: number, rows: number) => void;
  redraw: () => void;
}): PaneLayout {
  const { screen, pane, documentPane } = o;
  let documentVisible = true;
  let focus: Focus = 'session';
  const measure = (): Layout =>
    computeLayout({ cols: screen.width as number, rows: screen.height as number, documentVisible });
  let layout = measure();

  function labels(): void {
    const title = o.childTitle();
    setQuietLabel(
      pane.box,
      ` ${focus === 'session' ? '▶ ' : ''}claude${title ? ` · ${terminalText(title.slice(0, 60))}` : ''} `,
    );
    pane.box.style.border = o.noColor ? {} : { fg: focus === 'session' ? 'cyan' : 'default' };
    documentPane.setFocus(focus === 'document');
  }

  function apply(): void {
    const before = layout.inner;
    layout = measure();
    const place = (box: Widgets.BoxElement, r: { left: number; top: number; width: number; height: number }) => {
      box.left = r.left;
      box.top = r.top;
      box.width = r.width;
      box.height = r.height;
    };
    place(pane.box, layout.session);
    place(o.statusBox, layout.status);
    if (layout.document) {
      place(documentPane.box, layout.document);
      documentPane.box.show();
    } else {
      documentPane.box.hide();
      if (focus === 'document') focus = 'session';
    }
    labels();
    o.refreshStatus();
    const { cols, rows } = layout.inner;
    if (cols !== before.cols || rows !== before.rows) {
      pane.resize(cols, rows);
      o.resized(cols, rows);
    }
    o.redraw();
  }

  return {
    get layout() {
      return layout;
    },
    get focus() {
      return focus;
    },
    apply,
    labels,
    switchFocus() {
      if (focus === 'session' && !documentVisible) {
        documentVisible = true;
        apply();
      }
      focus = focus === 'session' && layout.document ? 'document' : 'session';
      labels();
      o.refreshStatus();
    },
    toggleDocument() {
      documentVisible = !documentVisible;
      apply();
    },
  };
}
