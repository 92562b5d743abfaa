// The OSC 8 links on claude's screen, for a repaint: @xterm/addon-serialize writes every cell's look but
// not its link, so a page or terminal painted from the run server's screen would show the links claude drew
// before it came as plain text. Each run of linked cells is written again where it is, in its own look,
// inside OSC 8 with the same target and id; the cursor and the pen are saved around it (DECSC … DECRC), so
// the serialized screen's cursor stays where it was.

import type { Terminal as XTerminal } from '@xterm/headless';
import { linkEscape, sameLink, type Link, type StyleCaps } from '../core/screen/cell-style.js';
import { createPaneStyles } from '../tui/pane-styles.js';

// A repaint goes to whoever asks: the looks as claude drew them (a client that shows less gets its own paint)
const EVERY_CAP: StyleCaps = { truecolor: true, styledUnderline: true, hyperlinks: true };

/** escapes that write the screen's linked cells again inside their links ('' when there is none) */
export function linkOverlay(term: XTerminal): string {
  const buffer = term.buffer.active;
  const styles = createPaneStyles(term);
  let out = '';
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(buffer.baseY + y);
    if (!line) continue;
    let link: Link | null = null;
    let look = -1;
    for (let x = 0; x < term.cols; x++) {
      const cell = line.getCell(x);
      if (!cell) break;
      const width = cell.getWidth();
      if (width === 0) continue; // the right half of a wide character, written with its left half
      const id = styles.of(cell);
      const want = styles.look(id).link;
      if (!sameLink(want, link)) {
        if (link) out += linkEscape(null);
        if (want) out += `\u001b[${y + 1};${x + 1}H${linkEscape(want)}`;
        link = want;
        look = -1;
      }
      if (!link) continue;
      if (id !== look) out += styles.sgr(id, EVERY_CAP);
      look = id;
      out += cell.getChars() || ' ';
    }
    if (link) out += linkEscape(null);
  }
  return out ? `\u001b7${out}\u001b8` : '';
}
