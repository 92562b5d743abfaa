// The split face against a virtual outer terminal: panes, status bar, the document shown, keys to the
// child and to the supervisor, emulator replies, resize, NO_COLOR and a clean restore.
import t from 'tap';
import type { Test } from 'tap';
import { createSplitFace } from '../../src/faces/split-face.js';
import type { Face, FaceCommand, StatusView } from '../../src/runtime/face.js';
import { createVirtualTty, type VirtualTty } from './virtual-tty.js';
import { createEmulator } from '../../src/adapters/emulator.js';

const VIEW: StatusView = {
  phase: 'working',
  context: 42_000,
  window: 200_000,
  at: 150_000,
  warnAt: 130_000,
  generation: 1,
  maxGenerations: 8,
  handoff: true,
  reviewLeft: null,
  held: false,
  workbench: '/tmp/wb',
  documentPath: '/tmp/wb/notes/交接-work.md',
  note: 'working',
  attention: null,
};

interface Rig {
  vt: VirtualTty;
  face: Face;
  input: string[];
  commands: FaceCommand[];
  resizes: Array<[number, number]>;
}

function rig(
  t: Test,
  opts: { cols?: number; rows?: number; env?: Record<string, string>; ownCommand?: string; onDetach?: () => void } = {},
): Rig {
  const vt = createVirtualTty(opts.cols ?? 160, opts.rows ?? 40);
  const face = createSplitFace({
    stdin: vt.stdin,
    stdout: vt.stdout,
    stderr: vt.stderr,
    env: { TERM: 'xterm-256color', ...opts.env },
    documentPath: null,
    ownCommand: opts.ownCommand ?? 'flower-pty',
    ...(opts.onDetach ? { onDetach: opts.onDetach } : {}),
  });
  t.teardown(() => face.restore());
  const r: Rig = { vt, face, input: [], commands: [], resizes: [] };
  face.onInput((d) => r.input.push(d));
  face.onCommand((c) => r.commands.push(c));
  face.onResize((c, rows) => r.resizes.push([c, rows]));
  return r;
}

const type = (r: Rig, keys: string) =>
  new Promise<void>((resolve) => {
    r.vt.stdin.write(keys);
    setImmediate(resolve);
  });

t.test('both panes, the plan before the first handoff and the status bar', async (t) => {
  const r = rig(t);
  r.face.show({ t: 'status', view: VIEW });
  r.face.show({ t: 'child', state: 'started' });
  r.face.childOutput('\u001b[1;32mfake-claude\u001b[0m ready\r\nfake> ');
  const screen = await r.vt.waitFor(
    (s) => s.includes('fake>') && s.includes('gen 1/8'),
    'the child and the status bar',
  );
  const lines = screen.split('\n');
  t.match(lines[0], /^┌─ ▶ claude ─+┐┌─ handoff document ─+┐$/, 'two bordered panes side by side');
  t.match(lines[1], /^│fake-claude ready +││No handoff yet +│$/);
  t.match(screen, /handoff at 150\.0K/);
  t.match(screen, /\/tmp\/wb\/notes\/交接-work\.md/);
  t.match(lines[38], /^ working · context 42\.0K\/200\.0K · about 108\.0K to the handoff .* gen 1\/8/);
  t.match(lines[39], /^ working · \/tmp\/wb +C-\] \? for keys $/);
  t.same(r.face.size(), { cols: 94, rows: 36 });
});

t.test('a shown document is in its pane, a missing section flagged on top', async (t) => {
  const r = rig(t);
  r.face.show({ t: 'status', view: VIEW });
  r.face.show({
    t: 'document',
    path: '/tmp/wb/notes/交接-work.md',
    text: '## Doing · 现在在做\nporting the tailer\n\n## Decided\nchokidar 5\n',
  });
  const screen = await r.vt.waitFor((s) => s.includes('porting the tailer'), 'the document text');
  t.match(screen, /! missing required section: Next · 下一步/);
  t.match(screen.split('\n')[0], /┌─ \/tmp\/wb\/notes\/交接-work\.md ─/, 'the pane is labelled with the path');
  t.notMatch(screen, /No handoff yet/, 'the plan is gone once a document exists');
  r.face.show({ t: 'document', path: '/tmp/wb/notes/交接-work.md', text: null });
  await r.vt.waitFor((s) => /is not on disk/.test(s), 'the missing-file line');
});

t.test('keys: text to the child, prefix commands to the supervisor, the prefix twice sends it', async (t) => {
  const r = rig(t);
  r.face.show({ t: 'status', view: VIEW });
  await type(r, 'hello\r');
  await type(r, '\u001dh');
  await type(r, '\u001dp');
  r.face.show({ t: 'status', view: { ...VIEW, held: true } });
  await type(r, '\u001dp');
  await type(r, '\u001d\u001d');
  await type(r, '\u001dq');
  t.same(r.input, ['hello\r', '\u001d']);
  t.same(r.commands, ['force-handoff', 'hold', 'release', 'quit']);
  await type(r, '\u001dx');
  await r.vt.waitFor((s) => s.includes('C-] x does nothing'), 'the unknown-key note');
  await type(r, '\u001dd');
  await r.vt.waitFor((s) => s.includes('nothing to detach from'), 'C-] d in a run that lives in this process');
});

t.test('the commands the flashes and the help print are worded as the person types flower-pty', async (t) => {
  const own = 'node /opt/fp/bin/flower-pty.js';
  const here = rig(t, { ownCommand: own });
  here.face.show({ t: 'status', view: VIEW });
  await type(here, '\u001ds');
  const flashed = await here.vt.waitFor(
    (s) => s.includes(`${own} attach --choose in another terminal lists every run`),
    'C-] s where the run lives in this terminal',
  );
  await type(here, '\u001d?');
  const helped = await here.vt.waitFor((s) => s.includes(`detach (the run goes on; ${own} attach)`), 'the help');
  here.face.restore();
  // on 80 columns, where the status line cannot hold the whole flash: what to type is whole
  const attached = rig(t, { cols: 80, rows: 24, ownCommand: 'npx flower-pty', onDetach: () => undefined });
  attached.face.show({ t: 'status', view: VIEW });
  await type(attached, '\u001ds');
  const chooser = await attached.vt.waitFor(
    (s) => /^ C-\] d, then npx flower-pty attach --choose /m.test(s),
    'C-] s in an attach that cannot show the chooser',
  );
  for (const shown of [flashed, helped, chooser])
    t.notMatch(shown, /(?<!npx )flower-pty attach/, 'never a bare flower-pty attach');
});

t.test(
  "the terminal's answer to the capability query, cut across two reads, never reaches claude as keys",
  async (t) => {
    const answers = '\u001b[?2026;2$y\u001b[?1u\u001bP>|kitty(0.35.2)\u001b\\\u001b[>1;4000;29c\u001b[?62;22c';
    // a read can end anywhere in them, even right after an ESC (Esc is a key too: it is held while the answers are due)
    for (const cut of [1, 3, 11, 12, 20, 35, answers.length - 4]) {
      const r = rig(t);
      r.face.show({ t: 'status', view: VIEW });
      await type(r, `a${answers.slice(0, cut)}`);
      await type(r, `${answers.slice(cut)}b`);
      // once the answers are in, an Esc that ends a read is a key at once
      await type(r, '\u001b');
      t.same(
        r.input.join(''),
        'ab\u001b',
        `cut after ${JSON.stringify(answers.slice(0, cut))}: the keys around them, and the Esc`,
      );
      r.face.restore();
    }
  },
);

t.test('hold and release say what happened, though the supervisor answers synchronously', async (t) => {
  const r = rig(t);
  r.face.show({ t: 'status', view: VIEW });
  // As the supervisor does: the new state is reported back inside the command call.
  r.face.onCommand((c) => r.face.show({ t: 'status', view: { ...VIEW, held: c === 'hold' } }));
  await type(r, '\u001dp');
  await r.vt.waitFor((s) => s.includes('held: the next session waits'), 'the hold note');
  await type(r, '\u001dp');
  await r.vt.waitFor((s) => s.includes('released: the next session may start'), 'the release note');
  t.same(r.commands, ['hold', 'release']);
});

t.test('emulator replies reach the child; arrows follow its cursor-key mode', async (t) => {
  const r = rig(t);
  r.face.show({ t: 'child', state: 'started' });
  r.face.childOutput('\u001b[c');
  await r.vt.waitFor(() => r.input.length > 0, 'a DA reply');
  t.same(r.input, ['\u001b[?1;2c'], 'DA1 answered through the input listeners');
  r.input.length = 0;
  await type(r, '\u001bOA');
  // The reply to a second DA proves the emulator has parsed the mode change before it.
  r.face.childOutput('\u001b[?1h\u001b[c');
  await r.vt.waitFor(() => r.input.length > 1, 'the second DA reply');
  await type(r, '\u001b[A');
  t.same(r.input, ['\u001b[A', '\u001b[?1;2c', '\u001bOA']);
});

t.test("the child's bell reaches the person's terminal", async (t) => {
  const r = rig(t);
  r.face.show({ t: 'child', state: 'started' });
  const before = r.vt.written().split('\u0007').length;
  r.face.childOutput('ding\u0007');
  await r.vt.waitFor(() => r.vt.written().split('\u0007').length > before, 'a BEL on stdout');
  t.pass('the bell was forwarded');
});

t.test('resize and the document toggle re-lay out and report the new inner size', async (t) => {
  const r = rig(t);
  r.face.show({ t: 'status', view: VIEW });
  r.vt.resize(100, 40);
  await r.vt.waitFor((s) => s.split('\n')[25]?.startsWith('┌─ handoff document') ?? false, 'the stacked layout');
  t.same(r.resizes, [[98, 23]]);
  t.same(r.face.size(), { cols: 98, rows: 23 });
  await type(r, '\u001dz');
  t.same(r.resizes.at(-1), [98, 36], 'hiding the document gives the session the height');
  const screen = await r.vt.waitFor((s) => !s.includes('handoff document'), 'the document pane gone');
  t.match(screen.split('\n')[37], /^└─+┘$/);
});

t.test('focus moves to the document pane, where j/k scroll and nothing reaches claude', async (t) => {
  const r = rig(t);
  r.face.show({ t: 'status', view: VIEW });
  const long = ['## Doing', ...Array.from({ length: 80 }, (_, i) => `line ${i + 1}`), '## Next', 'n'].join('\n');
  r.face.show({ t: 'document', path: '/d.md', text: long });
  await r.vt.waitFor((s) => s.includes('line 30'), 'the document');
  await type(r, '\u001d\t');
  await r.vt.waitFor((s) => s.includes('▶ /d.md') && s.includes('document: j/k scroll'), 'the focus mark and hint');
  r.face.show({ t: 'document', path: '/d.md', text: long.replace('line 1\n', 'CHANGED\n') });
  await r.vt.waitFor(
    (s) => s.includes('CHANGED') && s.includes('▶ /d.md'),
    'the focus mark kept when the document changes',
  );
  await type(r, 'jjjjj');
  const screen = await r.vt.waitFor((s) => !s.includes('│line 1 ') && !s.match(/│## Doing/), 'the scrolled document');
  t.match(screen, /line 40/);
  t.same(r.input, [], 'no key went to claude');
  await type(r, '\t');
  await type(r, 'x');
  t.same(r.input, ['x'], 'Tab gave the keyboard back');
});

t.test('NO_COLOR: our own chrome has no colour, the child keeps its own', async (t) => {
  const colourOf = async (r: Rig, word: string) => {
    const screen = await r.vt.waitFor((s) => s.includes(word), word);
    const y = screen.split('\n').findIndex((l) => l.includes(word));
    const x = screen.split('\n')[y]!.indexOf(word);
    const cell = r.vt.term.buffer.active.getLine(r.vt.term.buffer.active.viewportY + y)!.getCell(x)!;
    return cell.isFgDefault() ? 'default' : cell.getFgColor();
  };
  const coloured = rig(t);
  coloured.face.show({ t: 'status', view: VIEW });
  t.not(await colourOf(coloured, 'context 42.0K/'), 'default', 'the meter is coloured');
  coloured.face.restore();
  const plain = rig(t, { env: { NO_COLOR: '1' } });
  plain.face.show({ t: 'status', view: VIEW });
  plain.face.childOutput('\u001b[31mRED\u001b[0m');
  t.equal(await colourOf(plain, 'context 42.0K/'), 'default', 'no colour in the status bar');
  t.equal(await colourOf(plain, 'RED'), 1, "the child's red is kept");
});

t.test('restore gives the terminal back and is safe to call twice', async (t) => {
  const r = rig(t);
  r.face.show({ t: 'child', state: 'started' });
  r.face.childOutput('\u001b[?2004h');
  await r.vt.waitFor(() => r.vt.written().includes('\u001b[?2004h'), 'bracketed paste mirrored to the outer terminal');
  t.equal(r.vt.term.buffer.active.type, 'alternate');
  r.face.restore();
  r.face.restore();
  await r.vt.lines();
  t.equal(r.vt.term.buffer.active.type, 'normal', 'back on the normal screen');
  t.equal(r.vt.term.modes.bracketedPasteMode, false, 'bracketed paste off again');
  t.equal(r.vt.term.modes.applicationCursorKeysMode, false, 'cursor keys back to normal');
  t.match(r.vt.written().slice(-40), /\u001b\[\?25h/, 'the cursor shown last');
});

t.test('mouse: mirrored to the outer terminal only while claude asks; clicks translated into the pane', async (t) => {
  const r = rig(t);
  r.face.show({ t: 'child', state: 'started' });
  r.face.childOutput('ready');
  await type(r, '\u001b[<0;10;5M');
  t.same(r.input, [], 'no tracking asked: a mouse report reaches nobody');
  r.face.childOutput('\u001b[?1000h\u001b[?1006h');
  await r.vt.waitFor(
    () => r.vt.written().includes('\u001b[?1003h\u001b[?1006h'),
    'the outer terminal asked for mouse reports',
  );
  // outer (10,5) is pane column 9 - 1 = 8, row 5 - 1 - 1 = 3 (the border takes one cell each way)
  await type(r, '\u001b[<0;10;5M\u001b[<0;10;5m');
  t.same(r.input, ['\u001b[<0;9;4M', '\u001b[<0;9;4m']);
  await type(r, '\u001b[<35;10;5M');
  t.same(r.input.length, 2, 'motion is dropped in vt200 mode');
  await type(r, 'x\u001b[<0;150;5My');
  t.same(r.input.slice(2).join(''), 'xy', 'a click on the document pane goes nowhere, keys around it still do');
  r.face.childOutput('\u001b[?1000l');
  await r.vt.waitFor(() => r.vt.written().includes('\u001b[?1003l\u001b[?1006l'), 'mouse reports switched off again');
});

// Every cell of the outer screen: its text and attributes, as the person's terminal shows them.
async function cellsOf(vt: VirtualTty): Promise<string[]> {
  await new Promise<void>((resolve) => vt.term.write('', resolve));
  const buffer = vt.term.buffer.active;
  const cell = buffer.getNullCell();
  const rows: string[] = [];
  for (let y = 0; y < vt.term.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    const row: string[] = [];
    for (let x = 0; x < vt.term.cols; x++) {
      const c = line?.getCell(x, cell);
      row.push(
        c
          ? `${c.getChars()}:${c.getFgColorMode()}/${c.getFgColor()}:${c.getBgColorMode()}/${c.getBgColor()}:${c.isBold()}${c.isInverse()}${c.isUnderline()}`
          : '-',
      );
    }
    rows.push(row.join(' '));
  }
  return rows;
}

t.test(
  "claude's output alone repaints only the rows it changed, and the screen is what a whole render draws",
  async (t) => {
    const vt = createVirtualTty(120, 30);
    const shared = createEmulator({ cols: 118, rows: 27, scrollback: 0 });
    t.teardown(() => shared.dispose());
    const face = createSplitFace({
      stdin: vt.stdin,
      stdout: vt.stdout,
      stderr: vt.stderr,
      env: { TERM: 'xterm-256color' },
      documentPath: null,
      ownCommand: 'flower-pty',
      screen: shared,
    });
    t.teardown(() => face.restore());
    face.onInput(() => undefined);
    face.show({ t: 'child', state: 'started' });
    face.show({ t: 'title', title: 'fast' });
    const parsed = (data: string) => new Promise<void>((resolve) => shared.term.write(data, resolve));
    await parsed('ready\r\n\u001b[1;31mred\u001b[0m 中文 \u001b[38;2;10;200;30mrgb\u001b[0m\r\n');
    await vt.waitFor((s) => s.includes('rgb'), 'the first output');
    await new Promise((r) => setTimeout(r, 50)); // the whole frames settle
    const echoes = [
      'a',
      'b',
      '\u001b[7mc\u001b[0m',
      'é',
      '\r\n',
      '\u001b[2;3H\u001b[4mX\u001b[0m',
      '\u001b[5;1H\u001b[K終',
      '\u001b[?25l',
      '\u001b[?25h',
    ];
    for (const echo of echoes) {
      const before = vt.written().length;
      // a key first: the echo is then parsed and drawn at once, as the run server's screen does after a key
      await type({ vt } as Rig, 'k');
      await parsed(echo);
      const frame = vt.written().slice(before);
      t.ok(
        frame.length < 120,
        `the echo ${JSON.stringify(echo)} drew a few cells, not the screen (${frame.length} bytes)`,
      );
      t.notMatch(frame, /│|─/, 'no border was drawn again');
    }
    const fast = await cellsOf(vt);
    face.show({ t: 'title', title: 'fast' }); // a whole render of every element, from the same emulator
    await new Promise((r) => setTimeout(r, 50));
    t.same(await cellsOf(vt), fast, 'the rows drawn alone are what a whole render draws');
    t.match(fast.map((row) => row.replace(/:[^ ]*/g, '')).join('\n'), /X/, 'the echoes are on the screen');
  },
);

t.test(
  'the panes are made where the first layout puts them: no pane’s area is cleared before the first frame',
  async (t) => {
    // blessed clears a box's area whenever it is moved or its text set; a screen that has drawn nothing has
    // nothing to clear (a pane's label, one row, is still placed by blessed's own setter).
    const proto = (await import('blessed')).default.screen.prototype as unknown as {
      clearRegion(xi: number, xl: number, yi: number, yl: number): unknown;
    };
    const clear = proto.clearRegion;
    const cleared: string[] = [];
    proto.clearRegion = function (this: unknown, xi: number, xl: number, yi: number, yl: number) {
      if (yl - yi > 1) cleared.push(`${xl - xi}x${yl - yi} at ${xi},${yi}`);
      return clear.call(this, xi, xl, yi, yl);
    };
    t.teardown(() => {
      proto.clearRegion = clear;
    });
    const r = rig(t);
    t.same(cleared, [], 'no area of more than a row cleared while the face is made');
    const screen = await r.vt.waitFor((s) => s.includes('starting…'), 'the first frame');
    t.match(screen.split('\n')[0], /^┌─ ▶ claude ─+┐┌─ handoff document ─+┐$/, 'both panes where the layout puts them');
    t.match(screen.split('\n')[38], /^ *$/, 'the status bar’s rows below them, empty until a status comes');
  },
);
