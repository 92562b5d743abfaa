// The run server's screen: what a late client is painted must be what an emulator that saw every byte
// shows: characters, colours, attributes, wide characters, modes, the cursor and its visibility.
import t from 'tap';
import type { Test } from 'tap';
import { createScreenModel } from '../../src/server/screen-model.js';
import { createEmulator } from '../../src/adapters/emulator.js';
import type { Terminal } from '@xterm/headless';

const write = (term: Terminal, data: string) => new Promise<void>((resolve) => term.write(data, resolve));

// Every cell of the visible screen: its text and its attributes.
function cells(term: Terminal): string[] {
  const buffer = term.buffer.active;
  const out: string[] = [];
  const cell = buffer.getNullCell();
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y)!;
    for (let x = 0; x < term.cols; x++) {
      line.getCell(x, cell);
      out.push(
        `${cell.getChars()}|${cell.getWidth()}|${cell.getFgColorMode()}:${cell.getFgColor()}|${cell.getBgColorMode()}:${cell.getBgColor()}|${cell.isBold()}${cell.isItalic()}${cell.isUnderline()}${cell.isInverse()}`,
      );
    }
  }
  return out;
}

/** `drawn` written to a screen model and to a witness emulator; the model's repaint written to a fresh one,
 * which must show the witness's cells and cursor */
async function paintedAgain(t: Test, drawn: string, cols: number, rows: number) {
  const model = createScreenModel({ cols, rows });
  const witness = createEmulator({ cols, rows, scrollback: 0 });
  model.write(drawn);
  await write(witness.term, drawn);
  const repaint = await model.repaint();
  const fresh = createEmulator({ cols, rows, scrollback: 0 });
  await write(fresh.term, repaint);
  t.same(cells(fresh.term), cells(witness.term), 'the same cells, looks and all');
  t.equal(fresh.term.buffer.active.cursorX, witness.term.buffer.active.cursorX, 'cursor column');
  t.equal(fresh.term.buffer.active.cursorY, witness.term.buffer.active.cursorY, 'cursor row');
  return { model, witness, fresh, repaint };
}

const CLAUDE_LIKE = [
  '\u001b[?2004h\u001b[?1h', // bracketed paste, application cursor keys
  '\u001b[1;31mred bold\u001b[0m plain \u001b[38;2;10;200;30mtruecolor\u001b[0m \u001b[7minverse\u001b[0m\r\n',
  '中文 wide · emoji 😀 done\r\n',
  '\u001b[48;5;236m╭──────────╮\u001b[0m\r\n',
  'line\r\n'.repeat(30), // scrolls: the repaint is the visible screen only
  '\u001b[5;10H❯ typed text',
].join('');

t.test('a repaint on a cleared terminal reproduces every cell, the modes and the cursor', async (t) => {
  const { model, witness, fresh } = await paintedAgain(t, CLAUDE_LIKE, 60, 20);
  t.equal(fresh.term.modes.bracketedPasteMode, true, 'bracketed paste back on');
  t.equal(fresh.term.modes.applicationCursorKeysMode, true, 'application cursor keys back on');
  t.ok(fresh.cursorVisible);
  for (const e of [fresh, witness]) e.dispose();
  model.dispose();
});

t.test('a hidden cursor stays hidden; a reset forgets the previous child', async (t) => {
  const model = createScreenModel({ cols: 20, rows: 5 });
  model.write('busy\u001b[?25l');
  t.match(await model.repaint(), /\u001b\[\?25l$/, 'hidden');
  model.reset();
  const fresh = createEmulator({ cols: 20, rows: 5, scrollback: 0 });
  await write(fresh.term, await model.repaint());
  t.equal(fresh.term.buffer.active.getLine(0)!.translateToString(true), '', 'an empty screen after a reset');
  t.ok(fresh.cursorVisible, 'the cursor shows again');
  t.equal(
    await model.repaint(),
    '',
    'an empty screen repaints as nothing (a plain terminal that is not a tty gets no escapes)',
  );
  fresh.dispose();
  model.dispose();
});

t.test('a resize is what the next repaint is for', async (t) => {
  const model = createScreenModel({ cols: 40, rows: 10 });
  model.write('hello');
  model.resize(80, 24);
  t.same([model.cols, model.rows], [80, 24]);
  t.match(await model.repaint(), /hello/);
  model.dispose();
});

t.test("the repaint carries claude's cursor shape and keyboard modes to a terminal that attaches later", async (t) => {
  const model = createScreenModel({ cols: 20, rows: 5 });
  model.write('\u001b[>1u\u001b[>4;2m\u001b[6 qready');
  const repaint = await model.repaint();
  t.match(repaint, /\u001b\[6 q\u001b\[>1u\u001b\[>4;2m$/);
  const fresh = createEmulator({ cols: 20, rows: 5, scrollback: 0 });
  await write(fresh.term, repaint);
  t.same(fresh.keyboard, { kitty: 1, modifyOtherKeys: 2 }, 'a face drawn from the repaint knows them');
  t.equal(fresh.cursorShape, 6);
  model.reset();
  t.equal(await model.repaint(), '', 'a reset forgets them');
  fresh.dispose();
  model.dispose();
});

t.test("a repaint carries claude's OSC 8 links: same cells, same target and id, the cursor where it was", async (t) => {
  const drawn = [
    'see \u001b]8;id=a1;https://example.com/x\u001b\\\u001b[3;38;2;1;2;3mthe 中 doc\u001b[0m\u001b]8;;\u001b\\ now\r\n',
    '\u001b]8;;file:///tmp/f.ts\u0007f.ts\u001b]8;;\u0007 and plain\r\n',
    '\u001b[6;3Hend',
  ].join('');
  const { model, witness, fresh, repaint } = await paintedAgain(t, drawn, 40, 6);
  const { createPaneStyles } = await import('../../src/tui/pane-styles.js');
  const linksOf = (term: Terminal) => {
    const styles = createPaneStyles(term);
    const out: string[] = [];
    for (let y = 0; y < term.rows; y++) {
      const line = term.buffer.active.getLine(y)!;
      for (let x = 0; x < term.cols; x++) {
        const link = styles.look(styles.of(line.getCell(x)!)).link;
        if (link) out.push(`${y},${x} ${line.getCell(x)!.getChars()} ${link.uri} ${link.id ?? '-'}`);
      }
    }
    return out;
  };
  const want = linksOf(witness.term);
  t.ok(want.length >= 11, 'the witness has the links');
  t.same(linksOf(fresh.term), want, 'every linked cell, with its target and id');
  t.match(repaint, '\u001b]8;id=a1;https://example.com/x\u001b\\', 'written as OSC 8');
  for (const e of [fresh, witness]) e.dispose();
  model.dispose();
});

t.test('a screen without links repaints without any OSC 8', async (t) => {
  const model = createScreenModel({ cols: 20, rows: 3 });
  model.write('plain \u001b[1mbold\u001b[0m');
  t.notMatch(await model.repaint(), '\u001b]8', 'no link escape');
  model.dispose();
});
