// The looks of claude's cells, numbered: the session pane puts a look's number in blessed's screen buffer
// where blessed keeps its own attribute word (so its diff still sees what changed), and the painter
// (row-painter.ts) turns the number back into the look's escapes for each terminal. Numbers start above
// every blessed attribute word, so a cell tells whose it is. Read from @xterm/headless's cells: the public
// API for the attributes and colours, the cell's extended attributes for underline style and colour and
// for the OSC 8 link (xterm 6 keeps the link's id in the cell and its target in its link service).

import type { IBufferCell, Terminal as XTerminal } from '@xterm/headless';
import {
  BLINK,
  BOLD,
  DEFAULT_COLOUR,
  DIM,
  INVERSE,
  INVISIBLE,
  ITALIC,
  OVERLINE,
  RGB,
  STRIKETHROUGH,
  UNDERLINE,
  styleSgr,
  type CellStyle,
  type Colour,
  type Link,
  type StyleCaps,
} from '../core/screen/cell-style.js';

/** the first look's number: blessed's attribute words (flags << 18 | fg << 9 | bg) stay below it */
export const FIRST_STYLE = 1 << 28;
/** past this many looks (each new link is one) the numbering starts over at the next paint, the pane
 * repainted whole */
const MOST_STYLES = 4096;

export const isPaneStyle = (attr: number): boolean => attr >= FIRST_STYLE;

// xterm's cell internals read here (@xterm/headless 6.0: CellData with fg, bg and ExtendedAttrs).
interface CellInternals {
  fg?: number;
  bg?: number;
  extended?: { _ext?: number; _urlId?: number };
}
const HAS_EXTENDED = 0x10000000; // BgFlags.HAS_EXTENDED
const FG_UNDERLINE = 0x10000000; // FgFlags.UNDERLINE
const CM_MASK = 0x3000000;
const CM_RGB = 0x3000000;

interface LinkService {
  getLinkData(id: number): { uri: string; id?: string } | undefined;
}

export interface PaneStyles {
  /** the number of this cell's look */
  of(cell: IBufferCell): number;
  look(id: number): CellStyle;
  /** the SGR for look `id` on a terminal that shows `caps` (kept per caps object) */
  sgr(id: number, caps: StyleCaps): string;
  /** at the start of a paint: when there are too many looks, forgets them all (numbers from before then
   * mean nothing: the caller repaints every cell) and says so */
  startOver(): boolean;
}

function colour(mode: number, value: number): Colour {
  if (mode === 0) return DEFAULT_COLOUR;
  return mode === CM_RGB ? RGB | (value & 0xffffff) : value & 0xff;
}

export function createPaneStyles(term: XTerminal): PaneStyles {
  const links = (term as unknown as { _core?: { _oscLinkService?: LinkService } })._core?._oscLinkService ?? null;
  let looks: CellStyle[] = [];
  let plainKeys = new Map<number, Map<number, number>>();
  let extendedKeys = new Map<string, number>();
  let sgrs = new WeakMap<StyleCaps, string[]>();

  function decode(cell: IBufferCell): CellStyle {
    const c = cell as unknown as CellInternals;
    let flags = 0;
    if (cell.isBold()) flags |= BOLD;
    if (cell.isDim()) flags |= DIM;
    if (cell.isItalic()) flags |= ITALIC;
    // xterm's isUnderline() is true for a link's cells (its renderer underlines links): the underline
    // claude asked for is the cell's own flag or style
    const ext0 = c.bg !== undefined && c.bg & HAS_EXTENDED ? (c.extended?._ext ?? 0) : 0;
    if (c.fg !== undefined ? c.fg & FG_UNDERLINE || (ext0 >> 26) & 7 : cell.isUnderline()) flags |= UNDERLINE;
    if (cell.isBlink()) flags |= BLINK;
    if (cell.isInverse()) flags |= INVERSE;
    if (cell.isInvisible()) flags |= INVISIBLE;
    if (cell.isStrikethrough()) flags |= STRIKETHROUGH;
    if (cell.isOverline()) flags |= OVERLINE;
    const ext = ext0;
    const urlId = c.bg !== undefined && c.bg & HAS_EXTENDED ? (c.extended?._urlId ?? 0) : 0;
    const data = urlId && links ? links.getLinkData(urlId) : undefined;
    const link: Link | null = data ? (data.id ? { uri: data.uri, id: data.id } : { uri: data.uri }) : null;
    return {
      flags,
      underlineStyle: flags & UNDERLINE ? (ext >> 26) & 7 : 0,
      fg: colour(cell.getFgColorMode(), cell.getFgColor()),
      bg: colour(cell.getBgColorMode(), cell.getBgColor()),
      underlineColour: colour(ext & CM_MASK, ext),
      link,
    };
  }

  function add(cell: IBufferCell): number {
    looks.push(decode(cell));
    return FIRST_STYLE + looks.length - 1;
  }

  return {
    of(cell) {
      const c = cell as unknown as CellInternals;
      const fg = c.fg;
      const bg = c.bg;
      if (fg === undefined || bg === undefined) {
        // not the internals expected: the look itself is the key
        const key = JSON.stringify(decode(cell));
        let id = extendedKeys.get(key);
        if (id === undefined) extendedKeys.set(key, (id = add(cell)));
        return id;
      }
      if (bg & HAS_EXTENDED) {
        const key = `${fg}:${bg}:${c.extended?._ext ?? 0}:${c.extended?._urlId ?? 0}`;
        let id = extendedKeys.get(key);
        if (id === undefined) extendedKeys.set(key, (id = add(cell)));
        return id;
      }
      let byBg = plainKeys.get(fg);
      if (!byBg) plainKeys.set(fg, (byBg = new Map()));
      let id = byBg.get(bg);
      if (id === undefined) byBg.set(bg, (id = add(cell)));
      return id;
    },
    look(id) {
      return looks[id - FIRST_STYLE] ?? looks[0]!;
    },
    sgr(id, caps) {
      let kept = sgrs.get(caps);
      if (!kept) sgrs.set(caps, (kept = []));
      const i = id - FIRST_STYLE;
      return (kept[i] ??= styleSgr(looks[i] ?? looks[0]!, caps));
    },
    startOver() {
      if (looks.length <= MOST_STYLES) return false;
      looks = [];
      plainKeys = new Map();
      extendedKeys = new Map();
      sgrs = new WeakMap();
      return true;
    },
  };
}
