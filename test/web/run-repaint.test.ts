// A run page painted from the run server's one screen: the web server holds no emulator, and asks the
// run for its screen (`repaint`) on its one watcher connection. Here the run server's own parts (its
// screen face, clients and dispatch, client-link over a unix socket) and the web server's follower
// (run-follower.ts, run-feed.ts) talk for real, while claude's output (numbered lines) keeps coming:
// each page's screen, then its stream, must hold every line once, in order, nothing lost or doubled,
// including the lines written while its screen was asked for and taken.
import t, { type Test } from 'tap';
import { createConnection, createServer, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createServerFace } from '../../src/server/server-face.js';
import { createClientRegistry } from '../../src/server/client-registry.js';
import { createClientDispatch } from '../../src/server/client-dispatch.js';
import { openClientLink } from '../../src/server/client-link.js';
import type { RunSpec } from '../../src/server/run-spec.js';
import { encodeFrame, WIRE_VERSION } from '../../src/server/wire.js';
import { followRuns } from '../../src/web/run-follower.js';
import type { FeedMessage } from '../../src/web/run-feed.js';
import { recordingKeys } from '../helpers/recording-keys.js';
import { untilWithin } from '../helpers/poll.js';

const until = untilWithin(10_000, 5);

async function runServer(t: Test, lineWhileTaking = false) {
  const dir = mkdtempSync(join(tmpdir(), 'flower-repaint-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const serverFace = createServerFace({ cols: 60, rows: 12, broadcast: (m) => clients.broadcast(m) });
  const clients = createClientRegistry(serverFace);
  const spec = { id: 'abc123', options: { cwd: dir, workbench: null, step: 'step-1' } } as unknown as RunSpec;
  const dispatch = createClientDispatch({
    spec,
    serverFace,
    clients,
    relay: null,
    keys: recordingKeys({ echoFirst: false }).keys,
    log: () => undefined,
    startedAt: new Date().toISOString(),
    kill: () => undefined,
  });
  const server = createServer((socket: Socket) =>
    clients.add(openClientLink(socket, { onMessage: dispatch, onClose: (link) => clients.remove(link) })),
  );
  await new Promise<void>((r) => server.listen(join(dir, 'abc123.sock'), r));
  t.teardown(() => {
    for (const c of clients.all()) c.close();
    server.close();
    serverFace.screen.dispose();
  });
  let n = 0;
  /** claude writes its next line */
  const line = () => serverFace.childOutput(`L${String(++n).padStart(5, '0')}\r\n`);
  // and writes one more the moment a screen is being taken (after the repaint was asked of the emulator,
  // before it answers): the line is not in that screen, and must reach a page right after it
  const repaint = serverFace.screen.repaint.bind(serverFace.screen);
  if (lineWhileTaking) {
    Object.assign(serverFace.screen, {
      repaint: () => {
        const screen = repaint();
        line();
        return screen;
      },
    });
  }
  return { dir, serverFace, line, written: () => n };
}

// the line numbers in a text, in the order they appear
const numbers = (text: string) => [...text.matchAll(/L(\d{5})/g)].map((m) => Number(m[1]));

function page() {
  const got: FeedMessage[] = [];
  return {
    got,
    page: { show: (m: FeedMessage) => got.push(m), ended: () => undefined },
    /** the lines the page's screen showed, and the lines streamed to it after */
    lines() {
      const at = got.findIndex((m) => m.t === 'screen');
      const screen = at < 0 ? [] : numbers((got[at] as { data: string }).data);
      const stream = numbers(
        got
          .slice(at + 1)
          .filter((m) => m.t === 'output')
          .map((m) => (m as { data: string }).data)
          .join(''),
      );
      return { screens: got.filter((m) => m.t === 'screen').length, screen, stream, all: [...screen, ...stream] };
    },
  };
}
const consecutive = (xs: number[]) => xs.every((x, i) => i === 0 || x === xs[i - 1]! + 1);

t.test(
  "pages opened while claude writes: each is painted from the run server's screen, then streamed, every line once",
  async (t) => {
    const run = await runServer(t, true);
    for (let i = 0; i < 5; i++) run.line();
    const follower = followRuns(run.dir);
    t.teardown(() => follower.close());
    await until('the run is followed', () => follower.feed('abc123') !== undefined);
    const { feed } = follower.feed('abc123')!;
    await feed.snapshot(); // the first paint is in

    // claude writes without pause while pages open: lines go out between the request and its answer
    const writer = setInterval(() => {
      for (let i = 0; i < 3; i++) run.line();
    }, 1);
    const pages: Array<ReturnType<typeof page>> = [];
    for (let i = 0; i < 6; i++) {
      const p = page();
      feed.watch(p.page, null);
      pages.push(p);
      await new Promise((r) => setTimeout(r, 7));
    }
    const shot = await feed.snapshot(); // a run page's first HTML, taken meanwhile too
    await new Promise((r) => setTimeout(r, 30));
    clearInterval(writer);
    run.line();
    const last = run.written();
    await until('every page has the last line', () => pages.every((p) => p.lines().all.at(-1) === last));
    for (const [i, p] of pages.entries()) {
      const { screens, screen, stream, all } = p.lines();
      t.equal(screens, 1, `page ${i}: painted once`);
      t.ok(
        screen.length > 0 && stream.length > 0,
        `page ${i}: its screen held lines and more were streamed after it (${screen.length} + ${stream.length})`,
      );
      t.ok(consecutive(all), `page ${i}: screen then stream run ${all[0]}..${all.at(-1)} with no line lost or doubled`);
    }
    const shotScreen = shot.messages.find((m) => m.t === 'screen') as { data: string } | undefined;
    t.ok(
      shotScreen && consecutive(numbers(shotScreen.data)),
      'the snapshot for a first HTML is one screen, its lines in order',
    );
  },
);

t.test(
  'a page whose screen is current is painted at once, without asking the run; a stale one asks once for all who wait',
  async (t) => {
    const run = await runServer(t);
    run.line();
    const follower = followRuns(run.dir);
    t.teardown(() => follower.close());
    await until('the run is followed', () => follower.feed('abc123') !== undefined);
    const { feed } = follower.feed('abc123')!;
    const first = await feed.snapshot(); // the first paint's screen
    const again = page();
    feed.watch(again.page, null);
    t.equal(
      again.lines().screens,
      1,
      'nothing changed since the first paint: painted at once, from the screen the feed has',
    );
    t.same(again.lines().screen, [1]);
    t.equal(
      (await feed.snapshot()).messages.find((m) => m.t === 'screen'),
      first.messages.find((m) => m.t === 'screen'),
      'the same screen, kept while current',
    );

    run.line();
    await until('the line reached the web server', () => again.lines().stream.length === 1);
    const a = page();
    const b = page();
    feed.watch(a.page, null);
    feed.watch(b.page, first.seq);
    t.equal(a.lines().screens + b.lines().screens, 0, 'stale: they wait for the run server');
    run.line(); // written before the run server reads the request: in its answer, and not streamed again
    await until('both are painted', () => a.lines().screens === 1 && b.lines().screens === 1);
    await until('and streamed the third line', () => a.lines().all.at(-1) === 3 && b.lines().all.at(-1) === 3);
    t.same(a.lines().all, [1, 2, 3]);
    t.same(b.lines().all, [1, 2, 3]);
    t.equal(
      a.got.find((m) => m.t === 'screen'),
      b.got.find((m) => m.t === 'screen'),
      'one answer served both',
    );
  },
);

t.test(
  'the run tells the web server when a terminal attaches or goes: nothing is asked every few seconds',
  async (t) => {
    const run = await runServer(t);
    const follower = followRuns(run.dir);
    t.teardown(() => follower.close());
    await until('the run is followed', () => follower.get('abc123') !== undefined);
    t.equal(follower.get('abc123')!.clients, 0);
    t.equal(follower.refresh(), 0, 'a current run is never asked for its info');
    const terminal = createConnection(join(run.dir, 'abc123.sock'));
    terminal.on('data', () => undefined);
    terminal.write(
      encodeFrame({ t: 'hello', version: WIRE_VERSION, role: 'attach', cols: 80, rows: 24, face: 'plain' }),
    );
    await until('the terminal is counted', () => follower.get('abc123')?.clients === 1);
    terminal.destroy();
    await until('and its going too', () => follower.get('abc123')?.clients === 0);
    t.pass('both told by the run, unasked');
  },
);
