// The one width rule: every code point as wide as the run server's emulator (@xterm/headless with the
// Unicode 11 addon) takes it, and whole strings (CJK, emoji with modifiers, ZWJ sequences, combining marks)
// as wide as the emulator lays them out.
import t from 'tap';
import { codePointWidth, rangesOfWidth, textWidth } from '../../../src/core/screen/char-width.js';
import { createEmulator } from '../../../src/adapters/emulator.js';

interface UnicodeService {
  wcwidth(code: number): number;
  getStringCellWidth(text: string): number;
}

t.test('every code point: the width the emulator gives it', async (t) => {
  const emulator = createEmulator({ cols: 80, rows: 4, scrollback: 0 });
  t.teardown(() => emulator.dispose());
  const service = (emulator.term as unknown as { _core: { unicodeService: UnicodeService } })._core.unicodeService;
  const differ: string[] = [];
  for (let code = 0; code <= 0x10ffff; code++) {
    if (codePointWidth(code) !== service.wcwidth(code)) differ.push(`U+${code.toString(16)}`);
  }
  t.same(differ.slice(0, 10), [], 'no code point differs');
  t.equal(codePointWidth(0x4e2d), 2, 'a CJK ideograph is wide');
  t.equal(codePointWidth(0x301), 0, 'a combining acute takes no column');
  t.equal(codePointWidth(0x200d), 0, 'nor the zero-width joiner');
});

const SAMPLES = [
  '中文',
  'e\u0301te\u0301',
  '👍🏽',
  '👨\u200d👩\u200d👧',
  '❤\ufe0f',
  'a\u0308\u0323b',
  'ｆｕｌｌ',
  '한국어',
  'plain',
];

t.test('strings: as wide as the emulator lays them out', async (t) => {
  const emulator = createEmulator({ cols: 80, rows: 4, scrollback: 0 });
  t.teardown(() => emulator.dispose());
  for (const text of SAMPLES) {
    emulator.term.reset();
    await new Promise<void>((resolve) => emulator.term.write(text, resolve));
    t.equal(
      textWidth(text),
      emulator.term.buffer.active.cursorX,
      `${JSON.stringify(text)} takes ${emulator.term.buffer.active.cursorX} columns`,
    );
  }
  t.equal(textWidth('👨\u200d👩\u200d👧'), 6, 'a ZWJ family: three wide emoji, the joiners nothing');
});

t.test('the ranges of a width are exactly its code points', async (t) => {
  for (const width of [0, 2] as const) {
    const ranges = rangesOfWidth(width);
    let count = 0;
    for (const [from, to] of ranges)
      for (let code = from; code <= to; code++) if (codePointWidth(code) === width) count++;
    let all = 0;
    for (let code = 0xa0; code <= 0x10ffff; code++) if (codePointWidth(code) === width) all++;
    t.equal(count, all, `width ${width}: every one in the ranges, none else`);
    t.ok(
      ranges.every(([from, to], i) => from <= to && (i === 0 || ranges[i - 1]![1] < from - 1)),
      'sorted, merged',
    );
  }
});
