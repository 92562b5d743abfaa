// One cell's look as claude drew it (every SGR attribute, colours in the palette or 24-bit, the OSC 8
// link around it) and the escapes that show it on a terminal: in full on a terminal that shows it all,
// with 24-bit colours brought to the nearest of the 256 palette and styled underlines to plain ones on
// one that does not. The split view paints claude's pane with these, so nothing claude drew is lost.

export const BOLD = 1;
export const DIM = 2;
export const ITALIC = 4;
export const UNDERLINE = 8;
export const BLINK = 16;
export const INVERSE = 32;
export const INVISIBLE = 64;
export const STRIKETHROUGH = 128;
export const OVERLINE = 256;

/** -1: the terminal's default; 0..255: the palette; RGB | (r << 16 | g << 8 | b): 24-bit */
export type Colour = number;
export const DEFAULT_COLOUR = -1;
export const RGB = 0x1000000;

export interface Link {
  uri: string;
  /** the `id=` parameter claude gave, kept so one link cut over two rows stays one link */
  id?: string;
}

export interface CellStyle {
  flags: number;
  /** 1 single, 2 double, 3 curly, 4 dotted, 5 dashed (SGR 4:n); 0 with UNDERLINE means single */
  underlineStyle: number;
  fg: Colour;
  bg: Colour;
  underlineColour: Colour;
  link: Link | null;
}

/** what a terminal shows of a cell's look */
export interface StyleCaps {
  truecolor: boolean;
  /** SGR 4:n styles and SGR 58 underline colour */
  styledUnderline: boolean;
  hyperlinks: boolean;
}

export const PLAIN_STYLE: CellStyle = {
  flags: 0,
  underlineStyle: 0,
  fg: DEFAULT_COLOUR,
  bg: DEFAULT_COLOUR,
  underlineColour: DEFAULT_COLOUR,
  link: null,
};

const CUBE = [0, 95, 135, 175, 215, 255];

function nearestCube(v: number): number {
  let best = 0;
  for (let i = 1; i < CUBE.length; i++) if (Math.abs(CUBE[i]! - v) < Math.abs(CUBE[best]! - v)) best = i;
  return best;
}

/** the palette entry (16..255, the colour cube or the grey ramp) nearest to a 24-bit colour */
export function nearest256(rgb: number): number {
  const r = (rgb >> 16) & 0xff;
  const g = (rgb >> 8) & 0xff;
  const b = rgb & 0xff;
  const [cr, cg, cb] = [nearestCube(r), nearestCube(g), nearestCube(b)];
  const cube = 16 + 36 * cr + 6 * cg + cb;
  const cubeDistance = (CUBE[cr]! - r) ** 2 + (CUBE[cg]! - g) ** 2 + (CUBE[cb]! - b) ** 2;
  const mean = (r + g + b) / 3;
  const step = Math.max(0, Math.min(23, Math.round((mean - 8) / 10)));
  const grey = 8 + 10 * step;
  const greyDistance = (grey - r) ** 2 + (grey - g) ** 2 + (grey - b) ** 2;
  return greyDistance < cubeDistance ? 232 + step : cube;
}

// `base`: 30 (foreground), 40 (background) or 50 (underline colour, which has no short form).
function colourParams(colour: Colour, base: 30 | 40 | 50, truecolor: boolean): string {
  if (colour === DEFAULT_COLOUR) return '';
  const extended = base + 8;
  if (colour & RGB) {
    if (!truecolor) return `${extended};5;${nearest256(colour & 0xffffff)}`;
    return `${extended};2;${(colour >> 16) & 0xff};${(colour >> 8) & 0xff};${colour & 0xff}`;
  }
  if (base !== 50 && colour < 8) return String(base + colour);
  if (base !== 50 && colour < 16) return String(base + 60 + colour - 8);
  return `${extended};5;${colour}`;
}

/** the SGR that sets exactly this look from any other ('\x1b[0;…m'); the link is apart (linkEscape) */
export function styleSgr(style: CellStyle, caps: StyleCaps): string {
  const p: string[] = ['0'];
  const f = style.flags;
  if (f & BOLD) p.push('1');
  if (f & DIM) p.push('2');
  if (f & ITALIC) p.push('3');
  if (f & UNDERLINE) p.push(caps.styledUnderline && style.underlineStyle > 1 ? `4:${style.underlineStyle}` : '4');
  if (f & BLINK) p.push('5');
  if (f & INVERSE) p.push('7');
  if (f & INVISIBLE) p.push('8');
  if (f & STRIKETHROUGH) p.push('9');
  if (f & OVERLINE) p.push('53');
  const fg = colourParams(style.fg, 30, caps.truecolor);
  if (fg) p.push(fg);
  const bg = colourParams(style.bg, 40, caps.truecolor);
  if (bg) p.push(bg);
  if (f & UNDERLINE && caps.styledUnderline) {
    const ul = colourParams(style.underlineColour, 50, caps.truecolor);
    if (ul) p.push(ul);
  }
  return `\u001b[${p.join(';')}m`;
}

// A target is text in an escape: anything that could end the escape early (a control character) is dropped.
function clean(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
}

/** OSC 8 that opens `link` (null: closes the open one) */
export function linkEscape(link: Link | null): string {
  if (!link) return '\u001b]8;;\u001b\\';
  const params = link.id ? `id=${clean(link.id).replace(/[:;]/g, '')}` : '';
  return `\u001b]8;${params};${clean(link.uri)}\u001b\\`;
}

export function sameLink(a: Link | null, b: Link | null): boolean {
  return a === b || (a !== null && b !== null && a.uri === b.uri && a.id === b.id);
}
