// Claude's pane in the split view shows every cell as claude drew it: the same bytes written to a terminal
// of the pane's size and through the split view to an outer terminal give the same cells (characters, every
// attribute, 24-bit colours, underline style and colour, OSC 8 link target and id), after a whole render, an
// echo, the help drawn over the pane and taken away; a terminal that shows 256 colours gets the nearest ones.
import t from 'tap';
import type { Test } from 'tap';
import xtermHeadless from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';
import type { IBufferCell, Terminal as XTerminal } from '@xterm/headless';
import { createSplitFace } from '../../src/faces/split-face.js';
import type { Face } from '../../src/runtime/face.js';
import { createVirtualTty, type VirtualTty } from './virtual-tty.js';
import { nearest256 } from '../../src/core/screen/cell-style.js';

const { Terminal } = xtermHeadless;

// What a markdown reply of claude's looks like on a terminal: italic, strikethrough (a finished task),
// 24-bit colours, a curly coloured underline, overline, dim, a link with an id cut over two rows, wide text.
const REPLY = [
  '\u001b[1mTitle\u001b[0m and \u001b[3memphasis\u001b[23m then \u001b[9mdone task\u001b[29m',
  '\u001b[38;2;215;119;87mclaude orange\u001b[39m on \u001b[48;2;30;30;30mdark\u001b[49m, \u001b[2mdim\u001b[22m, \u001b[53mover\u001b[55m',
  '\u001b[4:3m\u001b[58;2;255;0;0mcurly red\u001b[59m\u001b[24m \u001b[4:2mdouble\u001b[24m \u001b[5mblink\u001b[25m \u001b[7minv\u001b[27m \u001b[8mhid\u001b[28m',
  'see \u001b]8;id=doc1;https://example.com/a?b=1\u001b\\example\u001b]8;;\u001b\\ and \u001b]8;;file:///tmp/x.ts\u001b\\x.ts\u001b]8;;\u001b\\',
  '中文 😀 \u001b[38;5;208mpalette\u001b[0m \u001b[91mbright\u001b[0m',
].join('\r\n');

interface Rig {
  vt: VirtualTty;
  face: Face;
}

function rig(t: Test, env: Record<string, string>): Rig {
  const vt = createVirtualTty(120, 30);
  const { stdin, stdout, stderr } = vt;
  const face = createSplitFace({ stdin, stdout, stderr, env, documentPath: null, ownCommand: 'flower-pty' });
  t.teardown(() => face.restore());
  face.onInput(() => {});
  face.show({ t: 'child', state: 'started' });
  return { vt, face };
}

function reference(cols: number, rows: number, data: string): Promise<XTerminal> {
  const term = new Terminal({ cols, rows, allowProposedApi: true });
  term.loadAddon(new unicode11.Unicode11Addon());
  term.unicode.activeVersion = '11';
  return new Promise((resolve) => term.write(data, () => resolve(term)));
}

function link(term: XTerminal, cell: IBufferCell): string {
  const c = cell as unknown as { extended?: { _urlId?: number } };
  const id = c.extended?._urlId ?? 0;
  if (!id) return '';
  const data = (
    term as unknown as {
      _core: { _oscLinkService: { getLinkData(i: number): { uri: string; id?: string } | undefined } };
    }
  )._core._oscLinkService.getLinkData(id);
  return data ? `${data.uri}#${data.id ?? ''}` : '';
}

// the underline claude asked for (xterm's isUnderline() also says yes for a link's cells): style and colour
function underline(cell: IBufferCell): string {
  const c = cell as unknown as { fg: number; extended?: { _ext?: number } };
  const ext = c.extended?._ext ?? 0;
  return c.fg & 0x10000000 || (ext >> 26) & 7 ? `${(ext >> 26) & 7}/${ext & 0x3ffffff}` : '';
}

function describe(term: XTerminal, cell: IBufferCell, rgbTo256: boolean, styled: boolean): string {
  const colour = (mode: number, value: number, rgb: boolean) =>
    mode === 0 ? 'd' : rgb ? (rgbTo256 ? `p${nearest256(value)}` : `#${value.toString(16)}`) : `p${value}`;
  const flags = [
    cell.isBold(),
    cell.isDim(),
    cell.isItalic(),
    cell.isBlink(),
    cell.isInverse(),
    cell.isInvisible(),
    cell.isStrikethrough(),
    cell.isOverline(),
  ]
    .map((f) => (f ? 1 : 0))
    .join('');
  return [
    cell.getChars() || ' ',
    cell.getWidth(),
    flags,
    styled ? underline(cell) : String(cell.isUnderline()),
    colour(cell.getFgColorMode(), cell.getFgColor(), cell.isFgRGB()),
    colour(cell.getBgColorMode(), cell.getBgColor(), cell.isBgRGB()),
    link(term, cell),
  ].join('|');
}

// The pane's inner cells on the outer terminal (inside the border: column 1, row 1) against the reference's.
function differences(outer: XTerminal, ref: XTerminal, rgbTo256: boolean): string[] {
  const found: string[] = [];
  for (let y = 0; y < ref.rows; y++) {
    const want = ref.buffer.active.getLine(y)!;
    const got = outer.buffer.active.getLine(outer.buffer.active.viewportY + y + 1)!;
    for (let x = 0; x < ref.cols; x++) {
      const a = describe(ref, want.getCell(x)!, rgbTo256, !rgbTo256);
      // the outer terminal was told the 256-colour form already: its palette colours compare as they are
      const b = describe(outer, got.getCell(x + 1)!, false, !rgbTo256);
      if (a !== b && found.length < 8) found.push(`(${x},${y}) want ${a} got ${b}`);
    }
  }
  return found;
}

async function settled(vt: VirtualTty): Promise<void> {
  await new Promise((r) => setTimeout(r, 60));
  await vt.lines();
}

// The split view on a terminal named `term`, the reply drawn, and the reply on a terminal of the pane's size.
async function replyShown(t: Test, term: string): Promise<Rig & { ref: XTerminal }> {
  const r = rig(t, { TERM: term });
  await settled(r.vt);
  r.face.childOutput(REPLY);
  await r.vt.waitFor((s) => s.includes('palette'), 'the reply');
  await settled(r.vt);
  const { cols, rows } = r.face.size();
  return { ...r, ref: await reference(cols, rows, REPLY) };
}

t.test('a modern terminal gets every cell of claude as claude drew it, through every kind of frame', async (t) => {
  const r = await replyShown(t, 'xterm-kitty');
  const { cols, rows } = r.face.size();
  let ref = r.ref;
  t.same(differences(r.vt.term, ref, false), [], 'after a whole render');

  // claude's output alone: the echo path paints just the rows it changed
  const more = '\r\n\u001b[3;38;2;1;2;3mtyped\u001b[0m \u001b]8;;https://e.org\u001b\\e\u001b]8;;\u001b\\';
  r.face.childOutput(more);
  await r.vt.waitFor((s) => s.includes('typed'), 'the echo');
  await settled(r.vt);
  ref = await reference(cols, rows, REPLY + more);
  t.same(differences(r.vt.term, ref, false), [], 'after an echo');

  // the help over the pane, then gone: the pane's cells come back whole
  r.vt.stdin.write('\u001d?');
  await r.vt.waitFor((s) => /detach/.test(s), 'the help');
  r.vt.stdin.write(' ');
  await settled(r.vt);
  t.same(differences(r.vt.term, ref, false), [], 'after the help was shown and taken away');

  const written = r.vt.written();
  t.match(written, /\u001b\[0;3;38;2;1;2;3m/, '24-bit colour and italic in one SGR');
  t.match(written, /\u001b\]8;id=doc1;https:\/\/example\.com\/a\?b=1\u001b\\/, 'the link with its id');
  t.match(written, /4:3/, 'a curly underline');
});

t.test('a 256-colour terminal gets the nearest palette colours, plain underlines, and the rest as drawn', async (t) => {
  const r = await replyShown(t, 'xterm-256color');
  t.same(differences(r.vt.term, r.ref, true), [], 'cells with 24-bit colours brought to the palette');
  const written = r.vt.written();
  t.notMatch(written, /38;2;|48;2;|58;2;/, 'no 24-bit colour sent');
  t.notMatch(written, /4:3/, 'no styled underline sent');
  t.match(written, /\u001b\[0;3m/, 'italic sent');
});

t.test('a link target is text: what would end the escape early is dropped, nothing is opened', async (t) => {
  const r = rig(t, { TERM: 'xterm-kitty' });
  await settled(r.vt);
  // xterm keeps the target as claude sent it; the painter must not let a control character end it early
  r.face.childOutput('\u001b]8;;https://x.org/\u0007\u001b]8;;\u001b\\after');
  await r.vt.waitFor((s) => s.includes('after'), 'the text');
  t.notMatch(r.vt.written(), /\u001b\]8;[^\u001b]*\u0007/, 'no BEL inside a link the painter wrote');
});
