// Tests for the chooser's keys (bytes into keys, each key's next state and act) and its screen (80×24, 30
// runs, a narrow and a too-small terminal, a hung host, hostile text), held to the one picture of a run.
import t from 'tap';
import {
  CHOOSER_START,
  chooserKeys,
  chooserRows,
  chooserStep,
  runKey,
  settle,
  SHORTCUTS,
  type ChooserRun,
  type ChooserState,
} from '../../../src/core/chooser/chooser-keys.js';
import { lineText, renderChooser, type ChooserScreen } from '../../../src/core/chooser/chooser-view.js';
import { textWidth } from '../../../src/core/screen/char-width.js';
import { askingStatus } from '../../helpers/wire-server.js';
import { statusBarLines, type StatusView } from '../../../src/core/screen/status.js';

const NOW = Date.parse('2026-12-01T05:00:00.000Z');
const view = (over: Partial<StatusView> = {}): StatusView => ({
  ...askingStatus(''),
  workbench: '/w',
  attention: null,
  ...over,
});
const run = (id: string, minutesAgo: number, v: Partial<StatusView> = {}, host: string | null = null): ChooserRun => ({
  id,
  host,
  cwd: `/home/me/src/${id}-project`,
  phase: v.phase ?? 'working',
  generation: 1,
  context: 50_000,
  window: 200_000,
  started: '2026-12-01T04:00:00.000Z',
  since: new Date(NOW - minutesAgo * 60_000).toISOString(),
  active: new Date(NOW - minutesAgo * 60_000).toISOString(),
  status: view(v),
});
const three = [
  run('aaaaaa', 1),
  run('bbbbbb', 5, { attention: 'waiting for your permission: Bash touch x' }),
  run('cccccc', 3),
];
const type = (state: ChooserState, bytes: string, runs = three) => {
  let s = settle(state, chooserRows(runs, state.filter));
  const acts = [];
  for (const key of chooserKeys(bytes)) {
    const r = chooserStep(s, key, runs, '/home/me');
    s = r.state;
    if (r.act) acts.push(r.act);
  }
  return { s, acts };
};
const screen = (over: Partial<ChooserScreen>): ChooserScreen => ({
  runs: three,
  hosts: [],
  state: settle(CHOOSER_START, chooserRows(over.runs ?? three, '')),
  now: NOW,
  cols: 80,
  rows: 24,
  home: '/home/me',
  message: null,
  command: 'flower-pty',
  ...over,
});

t.test('bytes into keys', async (t) => {
  t.same(chooserKeys('\u001b[A\u001bOB\r\u001b\u007fj\u0003'), [
    { k: 'up' },
    { k: 'down' },
    { k: 'enter' },
    { k: 'esc' },
    { k: 'backspace' },
    { k: 'char', ch: 'j' },
    { k: 'interrupt' },
  ]);
  t.same(
    chooserKeys('\u001b[15~\u001b[<0;3;4M/'),
    [{ k: 'char', ch: '/' }],
    'a function key and a mouse report are passed over whole',
  );
  t.same(chooserKeys('é😀'), [
    { k: 'char', ch: 'é' },
    { k: 'char', ch: '😀' },
  ]);
});

t.test('the waiting run first; move, Enter and the shortcuts switch', async (t) => {
  t.same(
    chooserRows(three, '').map((r) => r.id),
    ['bbbbbb', 'aaaaaa', 'cccccc'],
    'needs first, then the last active',
  );
  t.same(
    type(CHOOSER_START, '\r').acts.map((a) => a.t === 'switch' && a.run.id),
    ['bbbbbb'],
    'Enter: the first row',
  );
  t.same(
    type(CHOOSER_START, 'j\r').acts.map((a) => a.t === 'switch' && a.run.id),
    ['aaaaaa'],
  );
  t.same(
    type(CHOOSER_START, 'jjjjk\r').acts.map((a) => a.t === 'switch' && a.run.id),
    ['aaaaaa'],
    'down stops at the last row',
  );
  t.same(
    type(CHOOSER_START, '\u001b[B\u001b[B\u001b[A\u001b[A\u001b[A\r').acts.map((a) => a.t === 'switch' && a.run.id),
    ['bbbbbb'],
    'up stops at the first',
  );
  t.same(
    type(CHOOSER_START, '2').acts.map((a) => a.t === 'switch' && a.run.id),
    ['cccccc'],
    'a shortcut switches at once',
  );
  t.same(type(CHOOSER_START, '7').acts, [], 'a shortcut no row has does nothing');
  for (const close of ['q', '\u001b', '\u0003'])
    t.same(type(CHOOSER_START, close).acts, [{ t: 'close' }], JSON.stringify(close));
  t.notOk(
    SHORTCUTS.includes('j') ||
      SHORTCUTS.includes('k') ||
      SHORTCUTS.includes('q') ||
      SHORTCUTS.includes('x') ||
      SHORTCUTS.includes('n'),
    'no shortcut is a command',
  );
  t.equal(new Set(SHORTCUTS).size, SHORTCUTS.length);
  t.ok(SHORTCUTS.length >= 30, 'thirty runs each have one');
});

t.test('/ filters on id, folder or host; Enter switches to the match', async (t) => {
  const { s, acts } = type(CHOOSER_START, '/cccc\r');
  t.same(
    acts.map((a) => a.t === 'switch' && a.run.id),
    ['cccccc'],
  );
  t.same(
    [s.filter, s.mode, s.selected],
    ['', 'list', runKey(three[2]!)],
    'back from the run: every run listed, the chosen one selected',
  );
  t.same(type(CHOOSER_START, '/aaaa-proj').s.selected, runKey(three[0]!), 'by folder');
  const remote = [...three, run('dddddd', 2, {}, 'build-box')];
  t.same(
    chooserRows(remote, 'BUILD').map((r) => r.id),
    ['dddddd'],
    'by host, any case',
  );
  t.same(
    chooserRows(remote, 'local')
      .map((r) => r.id)
      .sort(),
    ['aaaaaa', 'bbbbbb', 'cccccc'],
    'this machine is local',
  );
  t.same(type(CHOOSER_START, '/zzz\r').acts, [], 'no match: Enter does nothing');
  const typedQ = type(CHOOSER_START, '/qjk');
  t.same([typedQ.s.filter, typedQ.acts], ['qjk', []], 'in the filter, letters are letters');
  const back = type(CHOOSER_START, '/cc\u007f\u007fzz\u001b');
  t.same([back.s.filter, back.s.mode], ['', 'list'], 'Backspace and Esc');
});

t.test('x asks y/n before it ends a run; a run gone meanwhile is not asked about', async (t) => {
  const yes = type(CHOOSER_START, 'jx');
  t.equal(yes.s.mode, 'confirm-end');
  t.same(
    type(yes.s, 'y').acts.map((a) => a.t === 'end' && a.run.id),
    ['aaaaaa'],
  );
  t.same(type(yes.s, 'n').acts, []);
  t.equal(type(yes.s, 'n').s.mode, 'list');
  const gone = settle(
    yes.s,
    chooserRows(
      three.filter((r) => r.id !== 'aaaaaa'),
      '',
    ),
  );
  t.same(
    [gone.mode, gone.ending, gone.selected],
    ['list', null, runKey(three[1]!)],
    'the selection moves to the first row',
  );
  t.same(
    type(
      gone,
      'y',
      three.filter((r) => r.id !== 'aaaaaa'),
    ).acts,
    [],
    'a y after it ended ends nothing',
  );
});

t.test('n asks the folder (this one by default), a worktree and a prompt', async (t) => {
  const { acts, s } = type(CHOOSER_START, 'n\rfeature-x\rfix the bug\r');
  t.same(acts, [{ t: 'new', form: { field: 2, folder: '/home/me', worktree: 'feature-x', prompt: 'fix the bug' } }]);
  t.equal(s.mode, 'list');
  const emptied = type(CHOOSER_START, `n${'\u007f'.repeat(8)}\r\r\r`);
  t.same([emptied.acts, emptied.s.form?.field], [[], 0], 'an empty folder goes back to the folder');
  t.equal(type(CHOOSER_START, 'n\u001b').s.mode, 'list');
});

const widthOk = (t: { fail: (m: string) => void }, lines: ReturnType<typeof renderChooser>, cols: number) => {
  for (const l of lines) if (textWidth(lineText(l)) > cols) t.fail(`wider than ${cols}: ${lineText(l)}`);
};

t.test('80×24: title, rows with shortcut, id, folder, words, bar, generation, time', async (t) => {
  const lines = renderChooser(screen({}));
  widthOk(t, lines, 80);
  t.ok(lines.length <= 24);
  t.equal(lineText(lines[0]!), 'flower-pty · 3 runs · 1 needs you');
  t.match(
    lineText(lines[1]!),
    /^\(0\) bbbbbb ~\/src\/bbbbbb-project waiting for your permission: B[^ ]*… [█·╎┃]{8} g1 {2}5m$/,
    'the words cut to fit, the bar, the generation, five minutes in that state',
  );
  t.match(
    lineText(renderChooser(screen({ cols: 120 }))[1]!),
    /waiting for your permission: Bash touch x +[█·╎┃]{8} g1 {2}5m$/,
    'wider: whole',
  );
  t.match(lineText(lines[2]!), /^\(1\) aaaaaa .* working .* 1m$/);
  t.equal(lines[1]![0]!.style, 'selected');
  t.equal(lines[2]![1]!.style, 'row');
  t.match(lineText(lines.at(-1)!), /Enter .* switch .* \/ filter .* q quit/);
});

t.test('30 runs at 80×24: the selection stays in view, each line fits', async (t) => {
  const many = Array.from({ length: 30 }, (_, i) => run(`r${String(i).padStart(4, '0')}x`, i));
  let state = settle(CHOOSER_START, chooserRows(many, ''));
  for (let i = 0; i < 29; i++) state = chooserStep(state, { k: 'down' }, many, '/').state;
  const lines = renderChooser(screen({ runs: many, state }));
  t.equal(lines.length, 24);
  widthOk(t, lines, 80);
  t.ok(
    lines.some((l) => l[0]!.style === 'selected' && lineText(l).startsWith(`(${SHORTCUTS[29]}) r0029x`)),
    'the last run, selected, with the 30th shortcut',
  );
  t.notOk(
    lines.some((l) => /^\(0\)/.test(lineText(l))),
    'the first rows scrolled away',
  );
  t.same(chooserStep(state, { k: 'char', ch: SHORTCUTS[29]! }, many, '/').act, { t: 'switch', run: many[29] });
});

t.test('narrow, too small, a hung host, hostile text, a preview', async (t) => {
  widthOk(t, renderChooser(screen({ cols: 40, rows: 10 })), 40);
  const tiny = renderChooser(screen({ cols: 30, rows: 24 }));
  t.equal(tiny.length, 1);
  t.match(lineText(tiny[0]!), /^too small for the chooser/);
  t.ok(textWidth(lineText(tiny[0]!)) <= 30);
  t.equal(renderChooser(screen({ rows: 4 })).length, 1, 'too few rows too');
  t.equal(
    lineText(renderChooser(screen({ rows: 4, cols: 120, command: 'node /opt/fp/bin/flower-pty.js' }))[0]!),
    'too small for the chooser: 40×5 at least (or node /opt/fp/bin/flower-pty.js attach ID)',
    "the person's own command",
  );
  const hosts = [
    { host: 'slow-box', problem: null, askingSince: NOW - 12_000 },
    { host: 'gone-box', problem: 'gone-box: unreachable (ssh: connect timed out)', askingSince: null },
  ];
  const withHosts = renderChooser(screen({ hosts, runs: [...three, run('dddddd', 2, {}, 'fast-box')] }));
  const text = withHosts.map(lineText);
  t.ok(
    text.some((l) => /^ {2}slow-box: asked 12s ago, no answer yet$/.test(l)),
    'the hung host says so',
  );
  t.ok(
    text.some((l) => /^ {2}gone-box: unreachable \(ssh: connect timed out\)$/.test(l)),
    'a host that cannot answer: its problem, its host named once',
  );
  t.ok(
    text.some((l) => /^\(\d\) fast-box +dddddd/.test(l)),
    'the answered host is listed at once, with a host column',
  );
  t.ok(text.some((l) => /^\(\d\) local +aaaaaa/.test(l)));
  const evil = renderChooser(
    screen({ runs: [{ ...run('eeeeee', 1), cwd: '/tmp/\u001b]52;c;x\u0007', host: 'h\u009bx' }] }),
  );
  t.notOk(
    evil.some((l) => /[\u001b\u0007\u009b]/.test(lineText(l))),
    'no control reaches the terminal',
  );
  const preview = renderChooser(screen({ preview: ['claude> hello', 'line two'] }));
  t.ok(
    preview.map(lineText).some((l) => /^── bbbbbb ─+$/.test(l)),
    'the selected run named over its screen',
  );
  t.ok(preview.map(lineText).includes('claude> hello'));
  t.notOk(
    renderChooser(screen({ rows: 10, preview: ['claude> hello'] }))
      .map(lineText)
      .includes('claude> hello'),
    'no room: no preview',
  );
  t.match(
    lineText(
      renderChooser(
        screen({ state: { ...settle(CHOOSER_START, chooserRows(three, '')), mode: 'filter', filter: 'bb' } }),
      ).at(-1)!,
    ),
    /^\/bb {2}1 match/,
  );
});

t.test('the status bar says when other runs wait, with the key to the chooser', async (t) => {
  const bar = (count: number, width = 100) =>
    statusBarLines({ ...view(), note: '' }, { width, hint: 'C-] ? for keys', elsewhere: { count, key: 'C-] s' } })[0]!
      .map((s) => s.text)
      .join('');
  t.match(bar(1), /working · 1 other run waits for you: C-\] s/);
  t.match(bar(3), /3 other runs wait for you: C-\] s/);
  t.notMatch(bar(0), /other run/, 'none waits: nothing said');
  t.ok(bar(2, 60).length <= 60, 'it fits a narrow bar');
});
