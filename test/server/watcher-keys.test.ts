// A watcher's keys (a web page's, on the web server's one connection) take the split view's fast path:
// written to claude through the relay at once, the run told of them a timer later (as keys the relay
// delivered, so it writes none again), in order; an attached terminal's keys, or any without a relay or
// with no claude adopted, reach the run at once, which writes them itself.
import t from 'tap';
import { createClientDispatch } from '../../src/server/client-dispatch.js';
import { createClientRegistry } from '../../src/server/client-registry.js';
import type { ClientLink } from '../../src/server/client-link.js';
import type { FastRelay } from '../../src/adapters/fast-relay.js';
import type { ServerFace } from '../../src/server/server-face.js';
import type { RunSpec } from '../../src/server/run-spec.js';
import { createInputCeiling } from '../../src/core/server/input-ceiling.js';

function rig(relayed: boolean | null) {
  const told: Array<[string, boolean]> = [];
  const written: string[] = [];
  const serverFace = {
    screen: { cols: 80, rows: 24 },
    resize: () => undefined,
    latest: { view: null },
    inputCeiling: createInputCeiling(),
    input: (data: string, delivered = false) => void told.push([data, delivered]),
  } as unknown as ServerFace;
  const relay =
    relayed === null
      ? null
      : ({ writeClaude: (data: string) => (relayed ? (written.push(data), true) : false) } as unknown as FastRelay);
  const clients = createClientRegistry(serverFace);
  const dispatch = createClientDispatch({
    spec: {} as RunSpec,
    serverFace,
    clients,
    relay,
    log: () => undefined,
    startedAt: '',
    kill: () => undefined,
  });
  const link = (): ClientLink => ({ role: 'attach', live: true, size: null, face: null }) as unknown as ClientLink;
  return { told, written, clients, dispatch, link };
}
const aTurn = () => new Promise((resolve) => setTimeout(resolve, 5));

t.test(
  "a watcher's keys go to claude through the relay at once; the run hears of them after, once, delivered",
  async (t) => {
    const r = rig(true);
    const page = r.link();
    r.clients.add(page);
    r.clients.watch(page);
    r.dispatch(page, { t: 'input', data: 'a' });
    r.dispatch(page, { t: 'input', data: 'b' });
    t.same(r.written, ['a', 'b'], 'written to claude as they came');
    t.same(r.told, [], 'the run has not been told yet: its bookkeeping waits until after the echo');
    await aTurn();
    t.same(r.told, [['ab', true]], 'then told, in order, as keys already written');
    r.dispatch(page, { t: 'input', data: 'c' });
    await aTurn();
    t.same(r.told, [
      ['ab', true],
      ['c', true],
    ]);
  },
);

t.test(
  "an attached terminal's keys, and a watcher's with no relay or no claude adopted, reach the run at once",
  async (t) => {
    const attached = rig(true);
    const terminal = attached.link();
    attached.clients.add(terminal);
    attached.dispatch(terminal, { t: 'input', data: 'x' });
    t.same(
      attached.told,
      [['x', false]],
      'an attached terminal: the run writes its keys (its size follows the typist first)',
    );
    t.same(attached.written, []);
    for (const relayed of [null, false]) {
      const r = rig(relayed);
      const page = r.link();
      r.clients.add(page);
      r.clients.watch(page);
      r.dispatch(page, { t: 'input', data: 'y' });
      t.same(
        r.told,
        [['y', false]],
        `${relayed === null ? 'no relay' : 'no claude adopted'}: the run writes them itself, at once`,
      );
    }
  },
);
