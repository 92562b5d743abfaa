// Status bar lines: phase, countdown, meter words, the bar with its marks, generation, note, path, hint;
// and at every width from 60 to 240 columns, the state, the countdown and the meter before any path.
import t from 'tap';
import {
  HANDOFF_MARK,
  WARN_MARK,
  meterBar,
  meterLevel,
  statusBarLines,
  type StatusBarInput,
} from '../../../src/core/screen/status.js';

const view: StatusBarInput = {
  phase: 'working',
  context: 50_000,
  window: 200_000,
  at: 150_000,
  warnAt: 130_000,
  generation: 2,
  maxGenerations: 8,
  handoff: true,
  reviewLeft: null,
  held: false,
  workbench: '/w/.flower',
  note: 'working',
};
const text = (v: StatusBarInput, width = 160) =>
  statusBarLines(v, { width, hint: 'C-] ? for keys' }).map((l) => l.map((s) => s.text).join(''));

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

t.test('first line: phase, countdown, meter words and bar, generation; review counts down or says held', async (t) => {
  const [first] = text(view);
  t.match(first, /^ working · context 50\.0K\/200\.0K · about 100\.0K to the handoff [█·╎┃]{20} · gen 2\/8$/);
  t.match(text({ ...view, phase: 'review', reviewLeft: 7 })[0], /^ review · successor in 7s · context/);
  t.match(text({ ...view, phase: 'review', reviewLeft: 7, held: true })[0], /^ review · held · context/);
});

t.test('second line: the note, then the workbench, the key hint flush right', async (t) => {
  const [, second] = text(view, 100);
  t.equal(second?.length, 100);
  t.match(second, /^ working · \/w\/\.flower +C-\] \? for keys $/);
  const long = text({ ...view, workbench: '/x'.repeat(200) }, 60)[1];
  t.equal(long?.length, 60, 'a long path is cut, the hint stays');
  t.match(long, /^ working · …\/x\/x.* C-\] \? for keys $/, 'the path is cut at its start, the note kept whole');
  t.match(
    statusBarLines(view, { width: 100, hint: 'h', message: 'handoff written' })[1]?.[0]?.text,
    /handoff written/,
    'a message replaces the note',
  );
});

t.test('what needs a person is on the status bar and in the title text', async (t) => {
  const { statusLine } = await import('../../../src/core/screen/status.js');
  const s: StatusBarInput = {
    phase: 'working',
    context: 50_000,
    window: 200_000,
    at: 150_000,
    warnAt: 130_000,
    generation: 1,
    maxGenerations: 8,
    handoff: true,
    reviewLeft: null,
    held: false,
    workbench: '/p/.flower',
    note: '',
    attention: 'waiting for your permission: Bash touch x',
  };
  const first = statusBarLines(s, { width: 160, hint: 'C-] ?' })[0]!
    .map((x) => x.text)
    .join('');
  t.match(first, /^ working · waiting for your permission: Bash touch x · context/);
  t.match(statusLine(s), /· parked|waiting for your permission: Bash touch x$/);
  t.notMatch(statusLine({ ...s, attention: null }), /waiting/);
});

t.test('from 60 to 240 columns: the state, the countdown and the meter first; paths are cut before them', async (t) => {
  const demoPath = '/tmp/flower-pty-demo-o2nSR4/project/.flower';
  const review: StatusBarInput = {
    ...view,
    phase: 'review',
    reviewLeft: 8,
    context: 56_000,
    window: 100_000,
    at: 50_000,
    warnAt: 30_000,
    generation: 1,
    workbench: demoPath,
    note: 'demo: document frozen; C-] e edits it; successor in 8s',
  };
  const working: StatusBarInput = {
    ...review,
    phase: 'working',
    reviewLeft: null,
    context: 44_000,
    note: 'demo: past the "near" mark; at 50.0K flower-pty cuts at the next boundary',
  };
  for (const width of [60, 80, 100, 120, 160, 240]) {
    const [first, second] = text(review, width);
    t.ok(first!.length <= width && second!.length === width, `${width}: both lines fit`);
    t.match(
      first,
      /^ review · successor in 8s · context 56\.0K\/100\.0K/,
      `${width}: state, countdown with its number, meter`,
    );
    t.match(first, /gen 1\/8$/, `${width}: the generation too`);
    t.match(second, /^ demo: document frozen; C-\] e edits it; suc/, `${width}: the narration before the path`);
    const [wFirst, wSecond] = text(working, width);
    t.match(wFirst, /^ working · context 44\.0K\/100\.0K/, `${width}: working`);
    t.match(wSecond, /^ demo: past the "near" mark/, `${width}: the narration first`);
  }
  t.match(
    text(review, 60)[1],
    /^ demo: document frozen; C-\] e edits it; suc… C-\] \? for keys $/,
    '60: no room for the path: it goes, the note is cut last',
  );
  t.notMatch(text(review, 80)[1], /\/tmp/, '80: the path gave way to the note');
  t.match(text(working, 120)[1], / · …[^ ]*project\/\.flower C-\] \? for keys $/, '120: the path cut at its start');
  t.match(text(review, 240)[1], ` · ${demoPath} `, '240: the whole path');
  t.match(
    text(working, 80)[0],
    /about 6\.0K to the handoff [█·╎┃]{10} · gen 1\/8$/,
    '80: the meter in full words with a short bar',
  );
  t.match(text(working, 120)[0], /[█·╎┃]{20} · gen 1\/8$/, '120: the long bar');
  t.match(
    text(working, 60)[0],
    /^ working · context 44\.0K\/100\.0K [█·╎┃]{10} · gen 1\/8$/,
    '60: short words, the bar kept',
  );
  const asking: StatusBarInput = { ...working, attention: `claude asks: ${'which one? '.repeat(10)}` };
  const [askFirst] = text(asking, 60);
  t.equal(askFirst!.length, 60, 'what needs a person is cut to the width');
  t.match(askFirst, /^ working · claude asks: which one\? .*…$/);
});

t.test('the status bar shows a hostile path, note and attention as escapes, and fits them as shown', async (t) => {
  const hostile = 'p-\u001b]52;c;U1RPTEVO\u0007-\u001b[6n-\u009b31m-\u202e x';
  const v: StatusBarInput = {
    ...view,
    workbench: `/w/${hostile}/.flower`,
    note: `handoff written to /w/${hostile}.md`,
    attention: `waiting for your permission: Bash ${hostile}`,
  };
  for (const width of [60, 100, 160, 300]) {
    const lines = text(v, width);
    for (const line of lines) {
      t.notMatch(line, /[\u0000-\u001f\u007f-\u009f\u202e]/, `width ${width}: no control reaches the bar`);
      t.ok(line.length <= width, `width ${width}: the line fits (${line.length})`);
    }
  }
  t.match(
    text(v, 300).join('\n'),
    'p-\\x1b]52;c;U1RPTEVO\\x07-\\x1b[6n-\\u009b31m-\\u202e x',
    'what it holds is shown',
  );
});
