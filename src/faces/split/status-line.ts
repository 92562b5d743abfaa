// The split view's status bar and the outer terminal's title: the run's latest status view, the
// supervisor's last message (until the note changes), a flash that answers a key for FLASH_MS, and
// claude's own title. The title carries the state too, as in --plain (a tab shows it when hidden).

import type { Widgets } from 'blessed';

import type { StatusView } from '../../runtime/face.js';
import type { Focus } from '../../core/screen/keymap.js';
import type { StatusBar } from '../../tui/status-bar.js';
import { composeTitle } from '../../core/screen/title-filter.js';
import { statusLine } from '../../core/screen/status.js';
import { terminalText } from '../../core/terminal-text.js';

export const FLASH_MS = 4_000;

export interface SplitStatus {
  readonly view: StatusView | null;
  readonly childTitle: string;
  status(next: StatusView): void;
  message(text: string): void;
  flash(text: string): void;
  childTitleChanged(title: string): void;
  /** how many other runs wait for the person (their client counts them): the bar says so, with "prefix s" */
  othersWaiting(count: number): void;
  /** draws the bar again (the focus changed its hint) */
  refresh(): void;
  writeTitle(): void;
  dispose(): void;
}

export function createSplitStatus(o: {
  screen: Widgets.Screen;
  bar: StatusBar;
  prefixLabel: string;
  focus: () => Focus;
  redraw: () => void;
}): SplitStatus {
  let view: StatusView | null = null;
  let childTitle = '';
  let outerTitle = '';
  let message: string | null = null;
  let flash: string | null = null;
  let flashTimer: NodeJS.Timeout | null = null;
  let others = 0;

  function refresh(): void {
    if (!view) return;
    const hint =
      o.focus() === 'document'
        ? `document: j/k scroll · Tab back · ${o.prefixLabel} ? keys`
        : `${o.prefixLabel} ? for keys`;
    if (
      o.bar.update(view, { hint, message: flash ?? message, elsewhere: { count: others, key: `${o.prefixLabel} s` } })
    )
      o.redraw();
  }

  function writeTitle(): void {
    const next = composeTitle(childTitle, view ? statusLine(view) : '');
    // blessed writes it as OSC 0 as it is: claude's title and the notes in it go through the boundary first
    if (next !== outerTitle) o.screen.title = terminalText((outerTitle = next));
  }

  return {
    get view() {
      return view;
    },
    get childTitle() {
      return childTitle;
    },
    status(next) {
      if (view && next.note !== view.note) message = null;
      view = next;
      refresh();
    },
    message(text) {
      message = text;
      refresh();
    },
    flash(text) {
      flash = text;
      if (flashTimer) clearTimeout(flashTimer);
      flashTimer = setTimeout(() => {
        flash = null;
        flashTimer = null;
        refresh();
      }, FLASH_MS);
      flashTimer.unref();
      refresh();
    },
    othersWaiting(count) {
      if (count === others) return;
      others = count;
      refresh();
    },
    childTitleChanged(title) {
      childTitle = title;
    },
    refresh,
    writeTitle,
    dispose() {
      if (flashTimer) clearTimeout(flashTimer);
    },
  };
}
