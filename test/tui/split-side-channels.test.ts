// What claude tells a terminal besides the screen reaches the person's terminal through the split view:
// clipboard writes (never reads), notifications, the bell (through tmux wrapped as passthrough); the
// cursor shape and the kitty keyboard protocol while claude has the keys, taken back when the document
// pane has them and when the terminal is given back; frames wrapped in synchronized output, none drawn
// in the middle of claude's own synchronized update.
import t from 'tap';
import type { Test } from 'tap';
import { createSplitFace } from '../../src/faces/split-face.js';
import type { Face } from '../../src/runtime/face.js';
import { createVirtualTty, type VirtualTty } from './virtual-tty.js';

interface Rig {
  vt: VirtualTty;
  face: Face;
  input: string[];
}

function rig(t: Test, env: Record<string, string>): Rig {
  const vt = createVirtualTty(120, 30);
  const { stdin, stdout, stderr } = vt;
  const face = createSplitFace({ stdin, stdout, stderr, env, documentPath: null, ownCommand: 'flower-pty' });
  t.teardown(() => face.restore());
  const input: string[] = [];
  face.onInput((d) => input.push(d));
  face.show({ t: 'child', state: 'started' });
  return { vt, face, input };
}

const settle = (ms = 40) => new Promise((r) => setTimeout(r, ms));
// what the face wrote from `from` on
const since = (vt: VirtualTty, from: number) => vt.written().slice(from);

// claude's `output` through the face once the screen shows `text`: what the face wrote for it
async function shown(r: Rig, output: string, text: string): Promise<string> {
  await settle();
  const from = r.vt.written().length;
  r.face.childOutput(output);
  await r.vt.waitFor((s) => s.includes(text), text);
  await settle();
  return since(r.vt, from);
}

t.test('clipboard writes and notifications pass, a clipboard read does not; the bell rings', async (t) => {
  const r = rig(t, { TERM: 'xterm-kitty' });
  const out = await shown(
    r,
    '\u001b]52;c;aGVsbG8=\u0007\u001b]52;c;?\u0007\u001b]9;needs you\u0007\u001b]777;notify;Claude;done\u001b\\\u001b]99;i=1;hi\u001b\\\u0007shown',
    'shown',
  );
  t.match(out, '\u001b]52;c;aGVsbG8=\u0007', 'the clipboard write');
  t.notMatch(out, '52;c;?', 'no clipboard read');
  t.match(out, '\u001b]9;needs you\u0007');
  t.match(out, '\u001b]777;notify;Claude;done\u0007');
  t.match(out, '\u001b]99;i=1;hi\u0007');
  t.match(out.replace(/\u001b\][^\u0007]*\u0007/g, ''), '\u0007', 'the bell');
  t.same(r.input, [], 'nothing answered to claude for the read');
});

t.test('under tmux, side channels go wrapped as tmux passthrough', async (t) => {
  const r = rig(t, { TERM: 'tmux-256color', TMUX: '/tmp/tmux-1/default,1,0' });
  t.match(await shown(r, '\u001b]52;c;aGk=\u0007done', 'done'), '\u001bPtmux;\u001b\u001b]52;c;aGk=\u0007\u001b\\');
});

t.test(
  "claude's cursor shape and kitty keyboard push reach the terminal while claude has the keys, and are taken back",
  async (t) => {
    const r = rig(t, { TERM: 'xterm-kitty' });
    let out = await shown(r, '\u001b[>1u\u001b[6 qprompt', 'prompt');
    t.match(out, '\u001b[>1u', 'the terminal is asked for the kitty protocol');
    t.match(out, '\u001b[6 q', 'the bar cursor');
    // shift+enter as the terminal now sends it reaches claude as it came
    r.vt.stdin.write('\u001b[13;2u');
    await settle();
    t.same(r.input, ['\u001b[13;2u']);
    // the prefix in CSI u, then Tab: the document pane has the keys; the terminal's keyboard is given back
    let from = r.vt.written().length;
    r.vt.stdin.write('\u001b[93;5u\u001b[9u');
    await settle(150);
    out = since(r.vt, from);
    t.match(out, '\u001b[<u', 'popped when the document pane has the keys');
    t.match(out, '\u001b[0 q', "the terminal's own cursor shape");
    from = r.vt.written().length;
    r.vt.stdin.write('\u001b[27u'); // Esc (a terminal may still send CSI u for a moment): back to claude
    await settle();
    t.match(since(r.vt, from), '\u001b[>1u', 'pushed again');
    from = r.vt.written().length;
    r.face.restore();
    await settle(150);
    out = since(r.vt, from);
    t.match(out, '\u001b[<u', 'given back without the push');
    t.match(out, '\u001b[0 q');
    t.same(r.input, ['\u001b[13;2u'], 'none of our keys went to claude');
  },
);

t.test('claude asks the kitty flags: answered with what it pushed (xterm 6.0 does not answer)', async (t) => {
  const r = rig(t, { TERM: 'xterm-kitty' });
  await shown(r, '\u001b[?u\u001b[>1u\u001b[?u.', '.');
  t.same(r.input.join(''), '\u001b[?0u\u001b[?1u');
});

t.test('a terminal not known for the kitty protocol is not asked for it; claude still gets its keys', async (t) => {
  const r = rig(t, { TERM: 'xterm-256color' });
  t.notMatch(await shown(r, '\u001b[>1uprompt', 'prompt'), '\u001b[>1u');
  t.notMatch(r.vt.written(), '\u001b[?2026h', 'no synchronized output either');
});

t.test("frames wrapped in synchronized output; none drawn in the middle of claude's own update", async (t) => {
  const r = rig(t, { TERM: 'xterm-kitty' });
  await settle();
  r.face.childOutput('\u001b[?2026hhalf of a frame');
  await settle(100);
  t.notOk((await r.vt.lines()).join('\n').includes('half of a frame'), 'not painted while claude is mid-update');
  const from = r.vt.written().length;
  r.face.childOutput(' and the rest\u001b[?2026l');
  await r.vt.waitFor((s) => s.includes('half of a frame and the rest'), 'the whole frame');
  const out = since(r.vt, from);
  t.match(out, /^\u001b\[\?2026h[^]*half[^]*rest[^]*\u001b\[\?2026l/, 'the frame in one synchronized update');
  // an update claude never ends is painted anyway after a while, as a terminal does
  r.face.childOutput('\u001b[?2026hnever ended');
  await r.vt.waitFor((s) => s.includes('never ended'), 'painted after the wait', 3000);
});

t.test('what the terminal answers at attach adds to what its name says: sync and the kitty protocol', async (t) => {
  const r = rig(t, { TERM: 'xterm-256color' });
  await settle();
  t.match(r.vt.written(), '\u001b[?2026$p\u001b[?u', 'asked once at the start');
  r.vt.stdin.write('\u001b[?2026;2$y\u001b[?0u');
  await settle();
  const out = await shown(r, '\u001b[>1uprompt', 'prompt');
  t.match(out, '\u001b[>1u', 'the kitty protocol asked of a terminal that answered its query');
  t.match(out, '\u001b[?2026h', 'frames synchronized on a terminal that knows mode 2026');
  t.same(r.input, [], 'the answers are not keys for claude');
});

t.test(
  'a terminal that names itself (XTVERSION) over an environment that says nothing: 24-bit colour, sync, kitty keys',
  async (t) => {
    const r = rig(t, { TERM: 'xterm-256color' });
    await settle();
    t.match(
      r.vt.written(),
      '\u001b[>0q\u001b[>c\u001b[c',
      'its name and device attributes asked at the start, DA1 last',
    );
    const before = await shown(r, '\u001b[38;2;1;2;3mfirst\u001b[0m', 'first');
    t.notMatch(before, '38;2;1;2;3', 'no 24-bit colour before it answered');
    r.vt.stdin.write('\u001bP>|ghostty 1.1.0\u001b\\\u001b[>1;10;0c\u001b[?62;22c');
    await settle();
    const out = await shown(r, '\u001b[>1u\u001b[38;2;1;2;3msecond\u001b[0m', 'second');
    t.match(out, '38;2;1;2;3', '24-bit colour to a terminal that said it is Ghostty');
    t.match(out, '\u001b[?2026h', 'frames synchronized');
    t.match(out, '\u001b[>1u', 'the kitty protocol asked of it');
    t.same(r.input, [], 'its answers are not keys for claude');
  },
);
