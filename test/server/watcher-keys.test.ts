// Every client's keys go to the run's one sink (src/runtime/claude-keys.ts), a web page's (a watcher on the
// web server's one connection) as an attached terminal's: written to claude at once, the run told of them a
// timer later when the relay draws the echo (in order, each client's run of keys told once), and the
// client's books (claude's size follows the typist) kept when the run is told.
import t from 'tap';
import { createClientDispatch } from '../../src/server/client-dispatch.js';
import { createClientRegistry } from '../../src/server/client-registry.js';
import type { ClientLink } from '../../src/server/client-link.js';
import type { ServerFace } from '../../src/server/server-face.js';
import type { RunSpec } from '../../src/server/run-spec.js';
import { createInputCeiling } from '../../src/core/server/input-ceiling.js';
import { recordingKeys } from '../helpers/recording-keys.js';

function rig(echoFirst: boolean) {
  const resized: string[] = [];
  const serverFace = {
    screen: { cols: 80, rows: 24 },
    resize: (cols: number, rows: number) => void resized.push(`${cols}x${rows}`),
    latest: { view: null },
    inputCeiling: createInputCeiling(),
  } as unknown as ServerFace;
  const claude = recordingKeys({ echoFirst });
  const clients = createClientRegistry(serverFace);
  const dispatch = createClientDispatch({
    spec: {} as RunSpec,
    serverFace,
    clients,
    relay: null,
    keys: claude.keys,
    log: () => undefined,
    startedAt: '',
    kill: () => undefined,
  });
  const link = (size: { cols: number; rows: number } | null = null): ClientLink =>
    ({ role: 'attach', live: true, size, face: null }) as unknown as ClientLink;
  return { claude, resized, clients, dispatch, link };
}
const aTurn = () => new Promise((resolve) => setTimeout(resolve, 5));

t.test("a watcher's keys reach claude at once; the run hears of them after, once, in order", async (t) => {
  const r = rig(true);
  const page = r.link();
  r.clients.add(page);
  r.clients.watch(page);
  r.dispatch(page, { t: 'input', data: 'a' });
  r.dispatch(page, { t: 'input', data: 'b' });
  t.same(r.claude.written, ['a', 'b'], 'written to claude as they came');
  t.same(r.claude.told, [], 'the run has not been told yet: its bookkeeping waits until after the echo');
  await aTurn();
  t.same(r.claude.told, ['ab'], 'then told, in order, once');
  r.dispatch(page, { t: 'input', data: 'c' });
  await aTurn();
  t.same(r.claude.told, ['ab', 'c']);
  t.same(r.claude.written, ['a', 'b', 'c'], 'and none written twice');
});

t.test("two clients' keys are told in the order they were written, and the size follows the typist", async (t) => {
  const r = rig(true);
  const first = r.link({ cols: 100, rows: 30 });
  const second = r.link({ cols: 120, rows: 40 });
  r.clients.add(first);
  r.clients.add(second);
  r.dispatch(first, { t: 'input', data: 'x' });
  r.dispatch(second, { t: 'input', data: 'y' });
  r.dispatch(first, { t: 'input', data: 'z' });
  t.same(r.resized, [], 'no size changes before the run is told');
  await aTurn();
  t.same(r.claude.told, ['x', 'y', 'z'], 'each run of keys told in the order written');
  t.same(r.resized, ['100x30', '120x40', '100x30'], 'claude takes the size of each typist in turn');
});

t.test('without the relay, keys are told at once, after they are written', async (t) => {
  const r = rig(false);
  const terminal = r.link();
  r.clients.add(terminal);
  r.dispatch(terminal, { t: 'input', data: 'x' });
  t.same(r.claude.written, ['x']);
  t.same(r.claude.told, ['x'], 'told at once');
  r.claude.exit();
  r.dispatch(terminal, { t: 'input', data: 'y' });
  t.same(r.claude.written, ['x'], 'no claude: written nowhere');
  t.same(r.claude.told, ['x', 'y'], 'the run still hears of it');
});
