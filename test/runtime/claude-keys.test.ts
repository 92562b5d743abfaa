// The one sink for keys into claude (src/runtime/claude-keys.ts): a person's keys and the run's own (the
// handoff request typed at the prompt, its Enter) are written by the same function, in the order they were
// sent; only a person's are told to the run, after they are written (a timer later when the relay draws the
// echo), in order with the keys the relay's thread wrote itself; with no claude, nothing is written.
import t from 'tap';
import { PERSON_KEYS, RUN_KEYS, type KeySender } from '../../src/runtime/claude-keys.js';
import { recordingKeys } from '../helpers/recording-keys.js';
import { TYPED_REQUEST_LINE } from '../../src/core/decide/stages/handoff.js';
import { askedPastTheLine, interruptedForTool, settle, startWorld } from './fake-ports.js';

const aTurn = () => new Promise((resolve) => setTimeout(resolve, 5));

t.test("an injected key and a typed key both pass the one sink, in order; only the person's is told", async (t) => {
  for (const echoFirst of [false, true]) {
    const c = recordingKeys({ echoFirst });
    c.keys.send('hello', PERSON_KEYS);
    c.keys.send('Write the handoff document to /tmp/req.md', RUN_KEYS);
    c.keys.send('!', PERSON_KEYS);
    c.keys.send('\r', RUN_KEYS);
    t.same(
      c.written,
      ['hello', 'Write the handoff document to /tmp/req.md', '!', '\r'],
      `written as sent (echoFirst ${echoFirst})`,
    );
    if (echoFirst) {
      t.same(c.told, [], 'with the relay the run is told after the echo, not at once');
      await aTurn();
    }
    // told at once, each send is its own `typed`; after the echo, one sender's waiting keys are told together
    t.same(c.told, echoFirst ? ['hello!'] : ['hello', '!'], "the run is told of the person's keys alone, in order");
  }
});

t.test('keys the relay wrote are told in order with the keys sent, and written by nobody again', async (t) => {
  const c = recordingKeys({ echoFirst: true });
  c.keys.send('a', PERSON_KEYS);
  c.keys.relayed('bc', { from: PERSON_KEYS, soon: true });
  c.keys.send('\u001b[A', PERSON_KEYS);
  t.same(c.written, ['a', '\u001b[A'], 'the relay wrote "bc" itself: the sink writes it nowhere');
  await aTurn();
  t.same(c.told, ['abc\u001b[A'], 'one sender: its keys told together, in the order typed');
});

t.test("each sender's books are kept when the run is told of its keys, in order", async (t) => {
  const c = recordingKeys({ echoFirst: true });
  const books: string[] = [];
  const first: KeySender = { books: () => void books.push('first') };
  const second: KeySender = { books: () => void books.push('second') };
  c.keys.send('x', first);
  c.keys.send('y', second);
  c.keys.send('z', first);
  t.same(books, [], 'no books before the echo');
  await aTurn();
  t.same(c.told, ['x', 'y', 'z']);
  t.same(books, ['first', 'second', 'first'], "each run of a sender's keys, in turn");
});

t.test('keys told at once come after the keys still waiting; with no claude nothing is written', async (t) => {
  const c = recordingKeys({ echoFirst: true });
  c.keys.relayed('a', { from: PERSON_KEYS, soon: false });
  c.exit();
  c.keys.send('b', PERSON_KEYS);
  t.same(c.written, [], 'claude is gone: written nowhere');
  t.same(c.told, ['a', 'b'], 'told at once, after the key the relay wrote before it');
  c.keys.send('c', RUN_KEYS);
  await aTurn();
  t.same(c.told, ['a', 'b'], "the run's own keys are never told");
});

t.test(
  "in a run, the handoff request the run types and a person's key reach claude by one way, in order",
  async (t) => {
    const w = startWorld();
    const sid = await askedPastTheLine(w, 'touch x');
    // The person says no: the turn ends with no hook, and the request is typed at the prompt it leaves.
    w.append(sid, [interruptedForTool()]);
    await settle();
    const line = TYPED_REQUEST_LINE.slice(0, 40);
    for (let waited = 0; waited < 5_000 && !w.child().written.some((d) => d.includes(line)); waited += 20)
      await w.clock.advance(20);
    const from = w.child().written.findIndex((d) => d.includes(line));
    t.ok(from >= 0, 'the run typed its request');
    w.type('k'); // a person's key, before the run's Enter
    await w.clock.advance(1_000);
    t.same(w.child().written.slice(from + 1), ['k', '\r'], "the person's key, then the run's Enter, as they were sent");
  },
);
