// A run page's terminal and claude's size. A page only watches: it never sizes claude (claude keeps
// the size of the terminal attached last, as tmux does; a phone's narrow window must not squeeze the
// claude a desktop terminal is typing into). So the page's terminal takes claude's size whatever its
// own box is, and only its font follows the box: as small as stays readable, and past that the box
// scrolls sideways. Pure and browser-safe: the page imports the compiled file (served from dist/core),
// the tests call it directly.

export const PAGE_FONT = { min: 8, max: 14, step: 0.5 } as const;

export interface PageFit {
  /** always claude's */
  cols: number;
  rows: number;
  fontSize: number;
}

/**
 * The page's terminal for claude's size: `fitsCols` is how many columns the page's box holds at
 * `fontSize` (null before the page is laid out). The size is claude's in every case; the font is
 * scaled so claude's columns fill the box, within PAGE_FONT.
 */
export function pageFit(
  claude: { cols: number; rows: number },
  o: { fontSize: number; fitsCols: number | null },
): PageFit {
  const size = { cols: claude.cols, rows: claude.rows };
  if (!o.fitsCols || o.fitsCols <= 0 || claude.cols <= 0) return { ...size, fontSize: o.fontSize };
  const wanted = (o.fontSize * o.fitsCols) / claude.cols;
  const stepped = Math.floor(wanted / PAGE_FONT.step) * PAGE_FONT.step;
  return { ...size, fontSize: Math.max(PAGE_FONT.min, Math.min(PAGE_FONT.max, stepped)) };
}
