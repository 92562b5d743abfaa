// The status bar: two lines at the bottom of the screen, rebuilt from the supervisor's view and
// only re-set when the text really changed (the supervisor reports four times a second).

import type { Widgets } from 'blessed';
import { statusBarLines, type StatusBarInput } from '../core/screen/status.js';
import { taggedSegments } from './styled-text.js';
import { box as blessedBox } from './blessed-parts.js';
import type { Rect } from '../core/screen/layout.js';

export interface StatusBar {
  readonly box: Widgets.BoxElement;
  /** true when the content changed and a frame is needed */
  update(
    view: StatusBarInput,
    opts: { hint: string; message: string | null; elsewhere?: { count: number; key: string } | null },
  ): boolean;
}

/** `at`: where the box starts (a face's first layout) */
export function createStatusBar(opts: { screen: Widgets.Screen; noColor: boolean; at?: Rect }): StatusBar {
  const box = blessedBox({ parent: opts.screen, ...opts.at, tags: true, wrap: false });
  let last = '';
  return {
    box,
    update(view, o) {
      const width = typeof box.width === 'number' ? box.width : 80;
      const lines = statusBarLines(view, { width, hint: o.hint, message: o.message, elsewhere: o.elsewhere ?? null });
      const content = lines
        .slice(0, Math.max(1, box.height as number))
        .map((s) => taggedSegments(s, opts.noColor))
        .join('\n');
      if (content === last) return false;
      last = content;
      box.setContent(content);
      return true;
    },
  };
}
