// Status bar lines: meter words, the bar with its marks, generation, phase, countdown, hint.
import t from 'tap';
import { HANDOFF_MARK, WARN_MARK, meterBar, meterLevel, statusBarLines, type StatusBarInput } from '../../src/core/status-bar.js';

const view: StatusBarInput = {
  phase: 'working', context: 50_000, window: 200_000, at: 150_000, warnAt: 130_000, generation: 2, maxGenerations: 8,
  handoff: true, reviewLeft: null, held: false, workbench: '/w/.flower', note: 'working',
};
const text = (v: StatusBarInput, width = 160) => statusBarLines(v, { width, hint: 'C-] ? for keys' }).map((l) => l.map((s) => s.text).join(''));

t.test('the bar fills with the context and marks the near and handoff lines', async (t) => {
  t.equal(meterBar(view, 20), '█████' + '·'.repeat(8) + WARN_MARK + '·' + HANDOFF_MARK + '····');
  t.equal(meterBar({ ...view, context: 200_000 }, 20).replace(/[^█]/g, '').length, 18, 'full but for the two marks');
  t.equal(meterBar({ ...view, context: 0 }, 10).includes('█'), false);
  t.equal(meterBar({ ...view, handoff: false }, 10).includes(HANDOFF_MARK), false, 'no marks when handoff is off');
  t.equal(meterBar({ ...view, window: 0 }, 10).length, 10, 'a zero window does not break it');
});

t.test('the level turns at the near line and at the handoff line', async (t) => {
  t.equal(meterLevel(view), 'ok');
  t.equal(meterLevel({ ...view, context: 130_000 }), 'near');
  t.equal(meterLevel({ ...view, context: 150_000 }), 'over');
});

t.test('first line: meter words, generation, phase; review counts down or says held', async (t) => {
  const [first] = text(view);
  t.match(first, /context 50\.0K\/200\.0K · about 100\.0K to the handoff/);
  t.match(first, /gen 2\/8 · working$/);
  t.match(text({ ...view, phase: 'review', reviewLeft: 7 })[0], /review · successor in 7s$/);
  t.match(text({ ...view, phase: 'review', reviewLeft: 7, held: true })[0], /review · held$/);
});

t.test('second line: workbench and note on the left, the key hint flush right', async (t) => {
  const [, second] = text(view, 100);
  t.equal(second?.length, 100);
  t.match(second, /^ \/w\/\.flower · working +C-\] \? for keys $/);
  const long = text({ ...view, workbench: '/x'.repeat(200) }, 60)[1];
  t.equal(long?.length, 60, 'a long path is cut, the hint stays');
  t.match(long, /… C-\] \? for keys $/);
  t.match(statusBarLines(view, { width: 100, hint: 'h', message: 'handoff written' })[1]?.[0]?.text, /handoff written/, 'a message replaces the note');
});

t.test('what needs a person is on the status bar and in the title text', async (t) => {
  const { statusLine } = await import('../../src/core/status-text.js');
  const s: StatusBarInput = {
    phase: 'working', context: 50_000, window: 200_000, at: 150_000, warnAt: 130_000, generation: 1, maxGenerations: 8,
    handoff: true, reviewLeft: null, held: false, workbench: '/p/.flower', note: '', attention: 'waiting for your permission: Bash touch x',
  };
  const first = statusBarLines(s, { width: 160, hint: 'C-] ?' })[0]!.map((x) => x.text).join('');
  t.match(first, /gen 1\/8 · working · waiting for your permission: Bash touch x/);
  t.match(statusLine(s), /· parked|waiting for your permission: Bash touch x$/);
  t.notMatch(statusLine({ ...s, attention: null }), /waiting/);
});
