// The relay's echo plan (native/echo-path.h) against the emulator: the bytes it writes on the person's
// terminal put each character where xterm puts claude's, in a pane anywhere on that terminal, and cover
// exactly the cells core/screen/echo-path.ts echoCells() says; whatever it cannot place it leaves alone.
import t from 'tap';
import xtermHeadless from '@xterm/headless';
import { nativeEchoPlan } from '../../src/adapters/fast-relay.js';
import { echoCells, type EchoArm } from '../../src/core/screen/echo-path.js';

const { Terminal } = xtermHeadless;
type Term = InstanceType<typeof Terminal>;
const write = (term: Term, data: string) => new Promise<void>((r) => term.write(data, r));
// a row of the screen (below what scrolled off it)
const row = (term: Term, y: number, from: number, to: number) =>
  term.buffer.active.getLine(term.buffer.active.baseY + y)?.translateToString(false, from, to) ?? '';

t.test('the plan puts each character where the emulator does, wrapping in the pane', async (t) => {
  const plan = nativeEchoPlan();
  if (!plan) throw new Error('the native relay was not built: `npm run build` compiles it');
  const cols = 12;
  const rows = 4;
  const left = 3;
  const top = 2;
  const cases: Array<[number, number, string]> = [
    [0, 0, 'a'],
    [4, 1, 'hello'],
    [10, 0, 'xyz'], // wraps after two
    [12, 0, 'w'], // at the edge already: wraps first
    [0, 0, 'abcdefghijklmnopqrstuvwxyz0123456789'], // three rows
    [7, 2, 'ABCDEFGHI'], // onto the last row, not past it
  ];
  for (const [x, y, text] of cases) {
    const arm: EchoArm = { x, y, cols, rows, left, top };
    // claude's screen: the cursor where the arm says, then the text
    const claude = new Terminal({ cols, rows, allowProposedApi: true });
    // (at the edge: a character just went into the last column, the only way there)
    await write(claude, `\u001b[${y + 1};${Math.min(x, cols - 1) + 1}H${x === cols ? '.' : ''}${text}`);
    // the person's terminal: wider, the pane at (left, top), the cursor where a frame leaves it
    const person = new Terminal({ cols: 40, rows: 10, allowProposedApi: true });
    const bytes = plan(arm, Buffer.from(text));
    t.ok(bytes, `planned: ${JSON.stringify(text)} at ${x},${y}`);
    await write(
      person,
      `\u001b[${top + y + 1};${left + Math.min(x, cols - 1) + 1}H${x === cols ? '.' : ''}${bytes!.toString('latin1')}`,
    );
    const { rows: cells, next } = echoCells(arm, text.length);
    for (const { y: r, from, to } of cells)
      t.equal(
        row(person, top + r, left + from, left + to),
        row(claude, r, from, to),
        `row ${r} ${from}..${to} as the emulator has it`,
      );
    t.equal(
      cells.reduce((n, c) => n + c.to - c.from, 0),
      text.length,
      'every character in the cells echoCells names',
    );
    t.equal(claude.buffer.active.cursorY, next.y, "the cursor's row after it");
    t.equal(claude.buffer.active.cursorX, next.x, "the cursor's column after it");
    claude.dispose();
    person.dispose();
  }
});

t.test('left to JavaScript: what the plan cannot place', async (t) => {
  const plan = nativeEchoPlan()!;
  const arm: EchoArm = { x: 2, y: 1, cols: 10, rows: 3, left: 0, top: 0 };
  t.equal(plan(arm, Buffer.from('a\u001b[31mb')), null, 'an escape');
  t.equal(plan(arm, Buffer.from('a\r\n')), null, 'a control');
  t.equal(plan(arm, Buffer.from('é')), null, 'UTF-8');
  t.equal(plan(arm, Buffer.from('\u007f')), null, 'DEL');
  t.equal(
    plan(arm, Buffer.from('x'.repeat(30))),
    null,
    'a wrap on the last row with nothing to put back beside the pane',
  );
  t.equal(
    plan({ ...arm, beside: '' }, Buffer.from('x'.repeat(31))),
    null,
    'a scroll that takes the first character off the pane',
  );
  t.equal(plan(arm, Buffer.alloc(0)), null, 'nothing');
  t.equal(plan({ ...arm, x: 11 }, Buffer.from('a')), null, 'a cursor past the edge');
  t.equal(plan(arm, Buffer.from('y'.repeat(2000))), null, 'a chunk longer than an echo');
  t.ok(plan(arm, Buffer.from('x'.repeat(18))), "up to the last row's end: planned");
});

// The person's terminal: every cell a character of its own (the pane's from claude's screen), so a cell
// out of place shows.
const mark = (x: number, y: number) => String.fromCharCode(0x41 + ((x * 7 + y * 3) % 58));
const grid = (term: Term) => Array.from({ length: term.rows }, (_, y) => row(term, y, 0, term.cols));

t.test('a wrap on the last row scrolls the pane, and what is beside it is put back', async (t) => {
  const plan = nativeEchoPlan()!;
  const cols = 12;
  const rows = 4;
  const left = 3;
  const top = 2;
  const wide = 30;
  const high = 8;
  // what a frame leaves beside the pane on its rows (row-painter.ts paintBeside makes it from blessed's record)
  let beside = '';
  for (let y = top; y < top + rows; y++) {
    beside += `\u001b[${y + 1};1H`;
    for (let x = 0; x < left; x++) beside += mark(x, y);
    beside += `\u001b[${y + 1};${left + cols + 1}H\u001b[31m`;
    for (let x = left + cols; x < wide; x++) beside += mark(x, y);
    beside += '\u001b[m';
  }
  const cases: Array<[number, number, string]> = [
    [10, 3, 'xyz'], // one row
    [0, 3, 'a'.repeat(12 * 3 + 5)], // three rows
    [12, 3, 'w'], // at the edge of the last row
    [5, 2, 'q'.repeat(7 + 12 + 4)], // from the row above: one row
  ];
  for (const sync of [false, true]) {
    for (const [x, y, text] of cases) {
      const claude = new Terminal({ cols, rows, allowProposedApi: true });
      const person = new Terminal({ cols: wide, rows: high, allowProposedApi: true });
      let fill = '';
      for (let r = 0; r < rows; r++)
        fill += `\u001b[${r + 1};1H${Array.from({ length: cols }, (_, c) => mark(left + c, top + r)).join('')}`;
      await write(claude, `${fill}\u001b[${y + 1};${Math.min(x, cols - 1) + 1}H${x === cols ? '.' : ''}${text}`);
      let all = '';
      for (let r = 0; r < high; r++)
        all += `\u001b[${r + 1};1H${Array.from({ length: wide }, (_, c) => mark(c, r)).join('')}`;
      await write(person, all);
      const before = grid(person);
      const bytes = plan({ x, y, cols, rows, left, top, sync, beside }, Buffer.from(text));
      t.ok(bytes, `planned: ${text.length} characters at ${x},${y}`);
      const written = bytes!.toString('latin1');
      t.equal(
        written.startsWith('\u001b[?2026h') && written.endsWith('\u001b[?2026l'),
        sync,
        sync ? 'one synchronized update' : 'no synchronized update asked of a terminal without it',
      );
      if (x === cols) await write(person, `\u001b[${top + y + 1};${left + cols}H.`);
      else await write(person, `\u001b[${top + y + 1};${left + x + 1}H`);
      await write(person, written);
      const after = grid(person);
      for (let r = 0; r < high; r++) {
        const inPane = r >= top && r < top + rows;
        const outside = (line: string) => (inPane ? line.slice(0, left) + line.slice(left + cols) : line);
        t.equal(outside(after[r]!), outside(before[r]!), `row ${r}: beside the pane as it was`);
        if (inPane)
          t.equal(
            after[r]!.slice(left, left + cols),
            row(claude, r - top, 0, cols),
            `row ${r}: the pane as claude's screen`,
          );
      }
      const { scrolled, next } = echoCells({ x, y, cols, rows, left, top }, text.length);
      t.ok(scrolled > 0, 'it scrolled');
      t.equal(person.buffer.active.cursorY - top, next.y, "the cursor's row after it");
      t.equal(claude.buffer.active.cursorX, next.x, "the emulator's cursor where echoCells says");
      t.equal(
        person.buffer.active
          .getLine(person.buffer.active.baseY + top + rows - 1)
          ?.getCell(left + cols + 1)
          ?.getFgColor(),
        1,
        'the colours beside put back',
      );
      claude.dispose();
      person.dispose();
    }
  }
});
