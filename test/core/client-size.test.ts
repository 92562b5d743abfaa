// The run server's rules for its terminals: which one sets claude's size, and when the server's emulator
// answers claude's terminal queries.
import t from 'tap';
import { emulatorAnswersQueries, leadAfter, type ClientSizeEvent } from '../../src/core/client-size.js';
import { enterDueAt, ENTER_AFTER_TYPING_MS } from '../../src/core/child-timing.js';

const big = { cols: 200, rows: 50 };
const small = { cols: 80, rows: 24 };

t.test('who sets the size', async (t) => {
  const cases: Array<[string, string | null, ClientSizeEvent<string>, { leader: string | null; resize: typeof big | null }]> = [
    ['a terminal that attaches leads, with its size', null, { type: 'attached', client: 'a', size: big }, { leader: 'a', resize: big }],
    ['one that attaches later takes over', 'a', { type: 'attached', client: 'b', size: small }, { leader: 'b', resize: small }],
    ['one that did not say its size leads but leaves the size', null, { type: 'attached', client: 'a', size: null }, { leader: 'a', resize: null }],
    ['the leader typing changes nothing', 'a', { type: 'typed', client: 'a', size: big }, { leader: 'a', resize: null }],
    ['another terminal typing takes the lead and its size', 'a', { type: 'typed', client: 'b', size: small }, { leader: 'b', resize: small }],
    ["the leader's resize is claude's", 'a', { type: 'resized', client: 'a', size: small }, { leader: 'a', resize: small }],
    ["another's resize is not", 'a', { type: 'resized', client: 'b', size: small }, { leader: 'a', resize: null }],
    ['the leader leaving keeps the size', 'a', { type: 'left', client: 'a' }, { leader: null, resize: null }],
    ['another leaving changes nothing', 'a', { type: 'left', client: 'b' }, { leader: 'a', resize: null }],
  ];
  for (const [name, leader, event, want] of cases) t.same(leadAfter(leader, event), want, name);
});

t.test('the emulator answers only while nobody is attached', async (t) => {
  t.equal(emulatorAnswersQueries(0), true);
  t.equal(emulatorAnswersQueries(1), false, "an attached terminal answers for itself");
  t.equal(emulatorAnswersQueries(3), false);
});

t.test('Enter goes a moment after the typed line', async (t) => {
  t.equal(enterDueAt(1_000), 1_000 + ENTER_AFTER_TYPING_MS);
  t.ok(ENTER_AFTER_TYPING_MS > 0);
});
