// The document pane before there is a document shows the plan (the meter, the threshold); a status update
// comes several times a second while claude works, and only one whose plan text changed asks for a drawing.
import t from 'tap';
import { openOuterScreen } from '../../src/tui/outer-screen.js';
import { createDocumentPane } from '../../src/tui/document-pane.js';
import { createVirtualTty } from './virtual-tty.js';

const plan = (context: number) => ({
  context,
  window: 200_000,
  at: 150_000,
  warnAt: 140_000,
  handoff: true,
  maxGenerations: 8,
  documentPath: null,
});

t.test('the plan: drawn when its text changes, not again for the same text; never over a document', async (t) => {
  const tty = createVirtualTty(100, 30);
  const { screen } = openOuterScreen(tty.stdout, 'xterm-256color');
  t.teardown(() => screen.destroy());
  const pane = createDocumentPane({ screen, noColor: false, at: { top: 0, left: 60, width: 40, height: 29 } });
  t.equal(pane.showPlan(plan(12_000)), true, 'the first plan is drawn');
  t.match(pane.text(), /context 12.0K of 200.0K/);
  t.equal(pane.showPlan(plan(12_000)), false, 'the same plan again: nothing to draw');
  t.equal(pane.showPlan(plan(13_000)), true, 'a new reading: drawn');
  t.match(pane.text(), /context 13.0K of 200.0K/);
  pane.showDocument('/tmp/handoff.md', '# Doing\nthe work\n');
  t.equal(pane.showPlan(plan(14_000)), false, 'a document shown: the plan never replaces it');
  t.match(pane.text(), /the work/);
});

// A handoff document with wide and joined characters, drawn into a terminal that measures with Unicode 11
// (as the emulator, the painter and the web page do): every row of the pane keeps its borders in place.
const UNICODE_DOCUMENT = [
  '# 中文の見出し: 한국어 and ｆｕｌｌｗｉｄｔｈ',
  'thumbs 👍🏽 and 👋🏿 with skin tones, twice 👍🏽👍🏽 in a row',
  'a family 👨‍👩‍👧 and a flag-ish 🏳️‍🌈 sequence',
  'combining: e\u0301te\u0301, a\u0308\u0323b, n\u0303o, Z\u0335\u0321a\u0336l\u0337go',
  'hearts ❤️ ✨ ⌚ ☕ and plain ASCII after them',
  '- [ ] 中文中文中文中文中文中文中文中文中文中文中文中文 wraps past the edge 😀😀😀😀😀😀😀😀😀😀',
  'end',
].join('\n');

t.test("wide, modified, joined and combining characters never shift the pane's borders", async (t) => {
  // the pane in the middle of the terminal: a row drawn too wide would push its right border along
  const tty = createVirtualTty(100, 24);
  const { screen } = openOuterScreen(tty.stdout, 'xterm-256color');
  t.teardown(() => screen.destroy());
  const pane = createDocumentPane({ screen, noColor: false, at: { top: 0, left: 20, width: 40, height: 22 } });
  pane.showDocument('/tmp/handoff.md', UNICODE_DOCUMENT);
  screen.render();
  await tty.lines();
  const buffer = tty.term.buffer.active;
  const shifted: string[] = [];
  let drawn = '';
  for (let y = 1; y < 21; y++) {
    const line = buffer.getLine(buffer.viewportY + y)!;
    let row = '';
    for (let x = 0; x < 100; x++) {
      const cell = line.getCell(x)!;
      if (cell.getWidth() > 0) row += cell.getChars() || ' ';
      if (x > 20 && x < 58 && cell.getWidth() > 0) drawn += cell.getChars();
    }
    if (line.getCell(20)!.getChars() !== '│' || line.getCell(59)!.getChars() !== '│')
      shifted.push(`row ${y}: ${JSON.stringify(row)}`);
  }
  t.same(shifted, [], "the left border at the pane's first column, the right one at its last, on every row");
  const body = UNICODE_DOCUMENT.replace(/\s/g, '');
  t.match(drawn.replace(/\s/g, ''), body, 'every character of the document is drawn, in order, none eaten');
});

// The pane's rows as the terminal shows them, between its borders (its first and last columns).
async function paneRows(document: string, width: number): Promise<string[]> {
  const tty = createVirtualTty(100, 24);
  const { screen } = openOuterScreen(tty.stdout, 'xterm-256color');
  try {
    const pane = createDocumentPane({ screen, noColor: false, at: { top: 0, left: 10, width, height: 22 } });
    pane.showDocument('/tmp/handoff.md', document);
    screen.render();
    await tty.waitFor((s) => s.includes('missing required section'), 'the document drawn');
    const buffer = tty.term.buffer.active;
    const rows: string[] = [];
    for (let y = 1; y < 21; y++) {
      const line = buffer.getLine(buffer.viewportY + y)!;
      let row = '';
      for (let x = 11; x < 10 + width - 1; x++) row += line.getCell(x)!.getChars() || ' ';
      rows.push(row.trimEnd());
    }
    // the document's own rows (not the flags of the sections it lacks)
    return rows.filter((row) => /[ea]\u0301|[ea]\u0308|end/.test(row));
  } finally {
    screen.destroy();
  }
}

t.test('a line with combining marks wraps where its columns run out, not where its code units do', async (t) => {
  // 30 accented letters written as letter + combining acute (60 code units, 30 columns) and a word: one row.
  const accented = 'e\u0301'.repeat(30);
  t.same(
    (await paneRows(`${accented} end`, 40)).map((row) => row.normalize('NFC')),
    [`${accented} end`.normalize('NFC')],
    'all of it on its one row',
  );
  // 70 columns of them in a pane of 37: the first row full, the rest on the next.
  const long = 'a\u0308'.repeat(70);
  const rows = await paneRows(long, 40);
  t.same(
    rows.map((row) => [...row.normalize('NFC')].length),
    [37, 33],
    'a full first row, the rest after it',
  );
  t.equal(rows.join('').normalize('NFC'), long.normalize('NFC'), 'every letter kept its mark');
});
