// A cell's look as escapes: every attribute, colours in their short, palette and 24-bit forms, 24-bit
// brought to the nearest palette entry and styled underlines to plain ones where the terminal lacks them;
// link escapes with their id, control characters dropped. What a terminal can show, from its environment
// and its own answers; tmux passthrough.
import t from 'tap';
import {
  BOLD,
  DEFAULT_COLOUR,
  ITALIC,
  OVERLINE,
  PLAIN_STYLE,
  RGB,
  STRIKETHROUGH,
  UNDERLINE,
  linkEscape,
  nearest256,
  sameLink,
  styleSgr,
} from '../../../src/core/screen/cell-style.js';
import { capsFromAnswer, capsFromFacts, throughTmux } from '../../../src/core/screen/terminal-caps.js';

const ALL = { truecolor: true, styledUnderline: true, hyperlinks: true };
const OLD = { truecolor: false, styledUnderline: false, hyperlinks: true };

t.test('styleSgr: every attribute and colour form', async (t) => {
  t.equal(styleSgr(PLAIN_STYLE, ALL), '\u001b[0m');
  const look = {
    ...PLAIN_STYLE,
    flags: BOLD | ITALIC | STRIKETHROUGH | OVERLINE | UNDERLINE,
    underlineStyle: 3,
    fg: 1,
    bg: 12,
    underlineColour: RGB | 0xff0000,
  };
  t.equal(styleSgr(look, ALL), '\u001b[0;1;3;4:3;9;53;31;104;58;2;255;0;0m');
  t.equal(styleSgr(look, OLD), '\u001b[0;1;3;4;9;53;31;104m', 'plain underline, no underline colour');
  t.equal(styleSgr({ ...PLAIN_STYLE, fg: RGB | 0xd77757, bg: 208 }, ALL), '\u001b[0;38;2;215;119;87;48;5;208m');
  t.equal(styleSgr({ ...PLAIN_STYLE, fg: RGB | 0xd77757 }, OLD), '\u001b[0;38;5;173m', '#d77757 is palette 173');
  t.equal(
    styleSgr({ ...PLAIN_STYLE, fg: DEFAULT_COLOUR, bg: RGB | 0x1e1e1e }, OLD),
    '\u001b[0;48;5;234m',
    'a dark grey: the grey ramp',
  );
});

t.test('nearest256: cube corners, the grey ramp', async (t) => {
  t.equal(nearest256(0x000000), 16);
  t.equal(nearest256(0xffffff), 231);
  t.equal(nearest256(0xff0000), 196);
  t.equal(nearest256(0x808080), 244);
});

t.test('links: open with the id, close, control characters dropped, compared by target and id', async (t) => {
  t.equal(linkEscape({ uri: 'https://a.b/c?d=1', id: 'x1' }), '\u001b]8;id=x1;https://a.b/c?d=1\u001b\\');
  t.equal(linkEscape({ uri: 'file:///t\u0007mp\u001b' }), '\u001b]8;;file:///tmp\u001b\\');
  t.equal(linkEscape(null), '\u001b]8;;\u001b\\');
  t.ok(sameLink({ uri: 'a', id: 'b' }, { uri: 'a', id: 'b' }));
  t.notOk(sameLink({ uri: 'a', id: 'b' }, { uri: 'a' }));
  t.notOk(sameLink(null, { uri: 'a' }));
});

t.test('capsFromFacts: modern terminals by name, 24-bit by COLORTERM, nothing odd for the Linux console', async (t) => {
  t.match(capsFromFacts({ term: 'xterm-kitty' }), {
    truecolor: true,
    styledUnderline: true,
    hyperlinks: true,
    sync: true,
    kittyKeys: true,
    tmux: false,
  });
  t.match(capsFromFacts({ term: 'xterm-256color', termProgram: 'WezTerm' }), {
    truecolor: true,
    sync: true,
    kittyKeys: true,
  });
  t.match(capsFromFacts({ term: 'xterm-256color', colorterm: 'truecolor' }), {
    truecolor: true,
    styledUnderline: false,
    sync: false,
    kittyKeys: false,
  });
  t.match(capsFromFacts({ term: 'xterm-256color' }), { truecolor: false, hyperlinks: true, sync: false });
  t.match(capsFromFacts({ term: 'linux' }), { truecolor: false, hyperlinks: false });
  t.match(capsFromFacts({ term: 'tmux-256color', tmux: true }), { tmux: true });
});

t.test("capsFromAnswer: the terminal's DECRQM 2026 and kitty answers", async (t) => {
  const plain = capsFromFacts({ term: 'xterm-256color' });
  t.equal(capsFromAnswer(plain, '\u001b[?2026;2$y').sync, true, 'mode 2026 known (reset)');
  t.equal(capsFromAnswer(plain, '\u001b[?2026;0$y').sync, false, 'not recognised');
  t.equal(capsFromAnswer(plain, '\u001b[?0u').kittyKeys, true, 'kitty flags answered');
  t.equal(capsFromAnswer(plain, 'junk'), plain, 'nothing learned, the same caps');
});

t.test("capsFromAnswer: the terminal's name (XTVERSION) and device attributes (DA1, DA2)", async (t) => {
  const { terminalVersion, deviceAttributes } = await import('../../../src/core/screen/terminal-caps.js');
  t.equal(terminalVersion('\u001bP>|kitty(0.35.2)\u001b\\'), 'kitty(0.35.2)', 'ST-ended');
  t.equal(terminalVersion('\u001bP>|WezTerm 20240203\u0007'), 'WezTerm 20240203', 'BEL-ended');
  t.equal(terminalVersion('\u001b[?62;22c'), null, 'no XTVERSION in it');
  t.same(deviceAttributes('\u001b[?62;4;22;52c', 'primary'), [62, 4, 22, 52]);
  t.same(deviceAttributes('\u001b[>1;4000;29c', 'secondary'), [1, 4000, 29]);
  t.equal(deviceAttributes('\u001b[>1;4000;29c', 'primary'), null);
  // over ssh the environment says little: the terminal's own answers say what it is
  const bare = capsFromFacts({ term: 'xterm-256color' });
  t.match(
    capsFromAnswer(bare, '\u001bP>|ghostty 1.1.0\u001b\\'),
    { truecolor: true, styledUnderline: true, sync: true, kittyKeys: true, tmux: false },
    'Ghostty by its name',
  );
  t.match(
    capsFromAnswer(bare, '\u001bP>|XTerm(390)\u001b\\'),
    { truecolor: false, sync: false, kittyKeys: false },
    'an xterm: nothing more than before',
  );
  t.match(capsFromAnswer(bare, '\u001bP>|tmux 3.4\u001b\\'), { tmux: true }, 'tmux by its name');
  t.match(capsFromAnswer(bare, '\u001b[>84;0;0c'), { tmux: true }, 'tmux by its DA2');
  t.match(
    capsFromAnswer(bare, '\u001b[>65;7600;1c'),
    { truecolor: true, hyperlinks: true, sync: false },
    'VTE 0.76 by its DA2',
  );
  t.match(capsFromAnswer(bare, '\u001b[>65;4600;1c'), { truecolor: false }, 'an old VTE: no 24-bit colour');
  t.match(capsFromAnswer(bare, '\u001b[>77;30701;0c'), { truecolor: true }, 'mintty by its DA2');
  t.equal(capsFromAnswer(bare, '\u001b[?62;22c'), bare, 'DA1 alone adds nothing');
  const named = capsFromAnswer(bare, '\u001bP>|WezTerm 20240203\u001b\\\u001b[?2026;0$y');
  t.equal(named.sync, false, "the terminal's DECRQM answer wins over its name");
});

t.test('throughTmux wraps a sequence with ESC doubled, only under tmux', async (t) => {
  const caps = capsFromFacts({ term: 'screen', tmux: true });
  t.equal(throughTmux('\u001b]52;c;aGk=\u0007', caps), '\u001bPtmux;\u001b\u001b]52;c;aGk=\u0007\u001b\\');
  t.equal(throughTmux('\u0007', capsFromFacts({ term: 'xterm' })), '\u0007');
});

t.test("takeCapsAnswers: the terminal's answers out of its input, the keys left", async (t) => {
  const { takeCapsAnswers } = await import('../../../src/core/screen/terminal-caps.js');
  t.same(takeCapsAnswers('ab\u001b[?2026;2$yc\u001b[?1ud'), {
    answers: '\u001b[?2026;2$y\u001b[?1u',
    rest: 'abcd',
    held: '',
  });
  t.same(takeCapsAnswers('\u001b[A'), { answers: '', rest: '\u001b[A', held: '' });
  const all = '\u001b[?2026;2$y\u001b[?1u\u001bP>|kitty(0.35.2)\u001b\\\u001b[>1;4000;29c\u001b[?62;22c';
  t.same(
    takeCapsAnswers(`x${all}y`),
    { answers: all, rest: 'xy', held: '' },
    'every answer to CAPS_QUERY, the keys around them left',
  );
  t.same(
    takeCapsAnswers('\u001b[1;5A\u001b[99;5u\u001b[200~p\u001b[201~'),
    { answers: '', rest: '\u001b[1;5A\u001b[99;5u\u001b[200~p\u001b[201~', held: '' },
    'keys are never taken',
  );
});

t.test('takeCapsAnswers: an answer a read cut in two is held for the next read, never left as keys', async (t) => {
  const { takeCapsAnswers } = await import('../../../src/core/screen/terminal-caps.js');
  const all = '\u001b[?2026;2$y\u001b[?1u\u001bP>|kitty(0.35.2)\u001b\\\u001b[>1;4000;29c\u001b[?62;22c';
  // every place a read can end inside the answers, with a key before and after
  for (let cut = 1; cut < all.length; cut++) {
    const first = takeCapsAnswers(`x${all.slice(0, cut)}`, true);
    const second = takeCapsAnswers(first.held + `${all.slice(cut)}y`, true);
    t.same(
      [first.answers + second.answers, first.rest + second.rest, second.held],
      [all, 'xy', ''],
      `cut after ${JSON.stringify(all.slice(0, cut))}`,
    );
  }
  t.same(
    takeCapsAnswers('a\u001b', false),
    { answers: '', rest: 'a\u001b', held: '' },
    'an Esc once the answers are in is a key at once',
  );
  t.same(
    takeCapsAnswers('a\u001b', true),
    { answers: '', rest: 'a', held: '\u001b' },
    '… while they are due it waits for the next read',
  );
  t.same(takeCapsAnswers('\u001b[?62', false).held, '\u001b[?62', 'a start no key sends is held at any time');
});
