// The prefix router and arrow translation: what reaches claude, what becomes a command.
import t from 'tap';
import {
  createKeyRouter,
  parsePrefix,
  passThroughTable,
  prefixName,
  splitKeys,
  translateCursorKey,
  type KeyContext,
} from '../../../src/core/screen/keymap.js';

const PREFIX = '\u001d'; // C-]
const session: KeyContext = { focus: 'session', applicationCursor: false };
const documentFocus: KeyContext = { focus: 'document', applicationCursor: false };

t.test('plain keys go to claude untouched, in one write', async (t) => {
  const r = createKeyRouter(PREFIX);
  t.same(r.push('hello\r', session), [{ type: 'send', data: 'hello\r' }]);
  t.same(
    r.push('\u0003\u0004\u0012\u000f\u0014\u0007\u001b[Z\u001b', session),
    [{ type: 'send', data: '\u0003\u0004\u0012\u000f\u0014\u0007\u001b[Z\u001b' }],
    "claude's own keys pass",
  );
  t.same(r.push('中文😀', session), [{ type: 'send', data: '中文😀' }]);
});

t.test('prefix then a command key is a command and sends nothing', async (t) => {
  const r = createKeyRouter(PREFIX);
  const cases: Array<[string, string]> = [
    ['\t', 'focus'],
    ['j', 'scroll-down'],
    ['k', 'scroll-up'],
    ['\u001b[5~', 'page-up'],
    ['\u001b[6~', 'page-down'],
    ['e', 'edit'],
    ['h', 'force-handoff'],
    ['p', 'hold-toggle'],
    ['z', 'toggle-document'],
    ['d', 'detach'],
    ['q', 'quit'],
    ['?', 'help'],
  ];
  for (const [key, command] of cases)
    t.same(r.push(PREFIX + key, session), [{ type: 'command', command }], JSON.stringify(key));
  t.equal(r.armed, false);
});

t.test('the prefix split from its key across two reads still works', async (t) => {
  const r = createKeyRouter(PREFIX);
  t.same(r.push('ab' + PREFIX, session), [{ type: 'send', data: 'ab' }]);
  t.equal(r.armed, true);
  t.same(r.push('q', session), [{ type: 'command', command: 'quit' }]);
});

t.test('the prefix twice sends the prefix byte itself', async (t) => {
  const r = createKeyRouter(PREFIX);
  t.same(r.push(PREFIX + PREFIX, session), [{ type: 'send', data: PREFIX }]);
  t.same(r.push(PREFIX + PREFIX + 'x', session), [{ type: 'send', data: PREFIX + 'x' }], 'and what follows goes on');
});

t.test('an unknown key after the prefix is reported, not sent; Esc cancels quietly', async (t) => {
  const r = createKeyRouter(PREFIX);
  t.same(r.push(PREFIX + 'x', session), [{ type: 'unknown', key: 'x', where: 'prefix' }]);
  t.same(r.push(PREFIX + '\u001b', session), []);
  t.same(r.push('a', session), [{ type: 'send', data: 'a' }], 'the router is disarmed again');
});

t.test('text around commands keeps its order', async (t) => {
  const r = createKeyRouter(PREFIX);
  t.same(r.push('ab' + PREFIX + 'hcd', session), [
    { type: 'send', data: 'ab' },
    { type: 'command', command: 'force-handoff' },
    { type: 'send', data: 'cd' },
  ]);
});

t.test('a bracketed paste goes through whole, prefix bytes and arrows inside it included', async (t) => {
  const r = createKeyRouter(PREFIX);
  const paste = '\u001b[200~x' + PREFIX + 'q\u001bOAy\u001b[201~';
  t.same(r.push(paste, session), [{ type: 'send', data: paste }]);
  t.same(
    r.push('\u001b[200~part one ' + PREFIX, session),
    [{ type: 'send', data: '\u001b[200~part one ' + PREFIX }],
    'a paste split across reads',
  );
  t.equal(r.armed, false);
  t.same(
    r.push('q end\u001b[201~' + PREFIX + 'q', session),
    [
      { type: 'send', data: 'q end\u001b[201~' },
      { type: 'command', command: 'quit' },
    ],
    'after the paste ends the prefix works again',
  );
});

t.test("arrows follow the child's cursor-key mode, whatever the outer terminal sent", async (t) => {
  const r = createKeyRouter(PREFIX);
  t.same(
    r.push('\u001bOA\u001bOD', session),
    [{ type: 'send', data: '\u001b[A\u001b[D' }],
    'normal mode: ESC O A -> ESC [ A',
  );
  t.same(
    r.push('\u001b[A\u001bOB', { focus: 'session', applicationCursor: true }),
    [{ type: 'send', data: '\u001bOA\u001bOB' }],
    'application mode',
  );
  t.equal(translateCursorKey('\u001b[1;5A', false), '\u001b[1;5A', 'modified arrows are left alone');
  t.equal(translateCursorKey('\u001bOH', false), '\u001b[H');
  t.equal(translateCursorKey('\u001bOP', false), '\u001bOP', 'F1 is not a cursor key');
  t.equal(translateCursorKey('x', true), 'x');
});

t.test('with the document focused, pager keys scroll and nothing reaches claude', async (t) => {
  const r = createKeyRouter(PREFIX);
  t.same(
    r.push('jk \u001b[6~gG', documentFocus).map((a) => (a.type === 'command' ? a.command : a.type)),
    ['scroll-down', 'scroll-up', 'page-down', 'page-down', 'top', 'bottom'],
  );
  t.same(r.push('x', documentFocus), [{ type: 'unknown', key: 'x', where: 'document' }]);
  t.same(r.push('\t', documentFocus), [{ type: 'command', command: 'focus' }]);
  t.same(r.push('\u001b[200~pasted\u001b[201~', documentFocus), [], 'a paste into the document pane is dropped');
  t.same(r.push(PREFIX + 'q', documentFocus), [{ type: 'command', command: 'quit' }], 'prefix commands still work');
});

t.test('splitKeys keeps sequences whole and never loses a byte', async (t) => {
  t.same(splitKeys('a\u001b[1;5Ab\u001bOAc\u001bxd😀\u001b'), [
    'a',
    '\u001b[1;5A',
    'b',
    '\u001bOA',
    'c',
    '\u001bx',
    'd',
    '😀',
    '\u001b',
  ]);
  t.same(splitKeys('\u001b[<0;10;5M'), ['\u001b[<0;10;5M'], 'SGR mouse');
  for (const s of ['\u001b[', '\u001bO', '\u001b[12', 'x\u001b\u001b[Ay'])
    t.equal(splitKeys(s).join(''), s, JSON.stringify(s));
});

t.test('prefix names parse and print', async (t) => {
  t.same(parsePrefix('C-]'), { byte: '\u001d' });
  t.same(parsePrefix('C-\\'), { byte: '\u001c' });
  t.same(parsePrefix('^a'), { byte: '\u0001' });
  t.match(parsePrefix('C-c'), { problem: /Claude Code's own keys/ });
  t.match(parsePrefix('C-['), { problem: /not a control key/ }, 'Esc is refused');
  t.match(parsePrefix('x'), { problem: /write it as C-\]/ });
  t.equal(prefixName('\u001d'), 'C-]');
  t.equal(prefixName('\u001c'), 'C-\\');
  t.equal(prefixName('\u0001'), 'C-a');
});

t.test('passes() says yes only where push() would send the text as it is, and nothing else', async (t) => {
  const samples = ['a', 'hello world', '~!@#', 'x\r', '\u001b[A', PREFIX, `a${PREFIX}d`, '中', '\u001b[200~hi'];
  for (const focus of ['session', 'document'] as const) {
    for (const armed of [false, true]) {
      for (const data of samples) {
        const probe = createKeyRouter(PREFIX);
        const ctx = focus === 'session' ? session : documentFocus;
        if (armed) probe.push(PREFIX, ctx);
        const passes = probe.passes(data, focus);
        const actions = probe.push(data, ctx);
        if (passes)
          t.same(
            actions,
            [{ type: 'send', data }],
            `${JSON.stringify(data)} passes (${focus}${armed ? ', armed' : ''})`,
          );
      }
    }
  }
  const r = createKeyRouter(PREFIX);
  t.equal(r.passes('abc', 'session'), true, 'typed text in the session pane');
  t.equal(r.passes('abc', 'document'), false, 'the document pane has the keys');
  t.equal(r.passes('x\r', 'session'), false, 'a control key is routed');
  r.push(PREFIX, session);
  t.equal(r.passes('d', 'session'), false, 'after the prefix: a command key');
  r.push('\u001b', session);
  r.push('\u001b[200~', session);
  t.equal(r.passes('text', 'session'), false, 'inside a paste: the router keeps its end');
});

t.test(
  'the pass-through table: any read of its bytes is what passes() lets through while passing() holds',
  async (t) => {
    const table = passThroughTable();
    t.equal(table.length, 256);
    const bytes = [...table.keys()].filter((b) => table[b]);
    t.ok(bytes.length > 0);
    for (const prefix of ['\u001d', '\u001c', '\u0001'])
      t.equal(table[prefix.charCodeAt(0)], 0, `never the prefix ${prefixName(prefix)}`);
    for (const b of [0x1b, 0x0d, 0x7f, 0x80, 0xc3, 0xe4, 0xff])
      t.equal(table[b], 0, `never 0x${b.toString(16)} (escape, Enter, DEL, a UTF-8 byte)`);
    const text = String.fromCharCode(...bytes);
    const r = createKeyRouter(PREFIX);
    t.equal(r.passing('session'), true);
    t.equal(r.passes(text, 'session'), true, 'every byte of the table passes, together');
    t.same(r.push(text, session), [{ type: 'send', data: text }], 'and push() would send it as it is');
    t.equal(r.passing('document'), false, 'the document pane has the keys: closed');
    r.push(PREFIX, session);
    t.equal(r.passing('session'), false, 'armed: closed');
    r.push('\u001b', session);
    t.equal(r.passing('session'), true, 'the prefix cancelled: open');
    r.push('\u001b[200~half a paste', session);
    t.equal(r.passing('session'), false, 'inside a paste: closed');
    r.push(' and its end\u001b[201~', session);
    t.equal(r.passing('session'), true);
  },
);

t.test('kitty keyboard protocol: our keys read in CSI u too, claude gets its keys as they came', async (t) => {
  const r = createKeyRouter(PREFIX);
  t.same(r.push('\u001b[93;5uq', session), [{ type: 'command', command: 'quit' }], 'C-] as CSI 93;5u, then q');
  t.same(
    r.push('\u001b[93;5u\u001b[93;5u', session),
    [{ type: 'send', data: '\u001b[93;5u' }],
    'the prefix twice: sent as it came',
  );
  t.same(
    r.push('ab\u001b[13;2u\u001b[27u', session),
    [{ type: 'send', data: 'ab\u001b[13;2u\u001b[27u' }],
    'shift+enter and Esc to claude untouched',
  );
  t.same(r.push('\u001b[93;5u\u001b[27u', session), [], 'Esc as CSI 27u cancels the prefix');
  t.equal(r.armed, false);
  t.same(
    r.push('\u001b[93;5u\u001b[93;5:3u\u001b[100;1:1u', session),
    [{ type: 'command', command: 'detach' }],
    "the prefix's release is passed over; d pressed is d",
  );
  t.same(
    r.push('\u001b[27u\u001b[9u', documentFocus),
    [
      { type: 'command', command: 'focus' },
      { type: 'command', command: 'focus' },
    ],
    'Esc and Tab as CSI u in the document pane',
  );
});
