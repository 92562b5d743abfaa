// A watcher (the web face's connection to a run): painted at once, streamed, it types when it sends
// input, but it never sizes claude's pty, is not counted among the terminals, and hears `size` when a
// terminal changes claude's size (fake claude prints its pty size on "size").
import t from 'tap';
import { startFake, claudeSize } from './fake-flower.js';
import { oneRun } from '../helpers/run-servers.js';
import { watchRun } from '../../src/web/run-watch.js';
import type { ServerMessage } from '../../src/server/wire.js';

t.test("a watcher never resizes claude, is not a terminal, and is told claude's new size", async (t) => {
  const f = startFake({ t, script: { default: { steps: [] } }, flowerArgs: ['--no-workbench'] });
  await f.run.waitFor(() => f.run.output().includes('fake> '), 15_000, 'the fake claude');
  const first = await claudeSize(f.run);
  const [cols, rows] = first.slice('size: '.length).split('x').map(Number);
  const run = await oneRun(f.runtime);

  const seen: ServerMessage[] = [];
  const watch = watchRun(run.socket, { message: (m) => seen.push(m), closed: () => undefined });
  t.teardown(() => watch.close());
  await f.run.waitFor(() => seen.some((m) => m.t === 'screen'), 15_000, 'the watcher painted');
  const welcome = seen.find((m) => m.t === 'welcome');
  t.match(welcome, { t: 'welcome', run: { clients: 1, watchers: 1 } }, 'counted as a watcher, not a terminal');
  t.notOk(
    seen.find((m) => m.t === 'welcome' && m.direct),
    'never drawn by the server',
  );
  const screen = seen.find((m): m is Extract<ServerMessage, { t: 'screen' }> => m.t === 'screen')!;
  t.same([screen.cols, screen.rows], [cols, rows], "the screen at claude's size");
  t.ok(screen.data.includes(first), "painted from the server's screen model");

  watch.send({ t: 'resize', cols: 50, rows: 10 });
  watch.send({ t: 'input', data: 'from the watcher\r' });
  await f.run.waitFor(() => f.run.output().includes('echo: from the watcher'), 15_000, "the watcher's keys");
  t.ok(
    seen.some((m) => m.t === 'output' && m.data.includes('echo: from the watcher')),
    'the watcher hears the echo',
  );
  t.equal(await claudeSize(f.run), first, 'neither its resize nor its typing sized claude');
  t.notOk(
    seen.some((m) => m.t === 'size'),
    'no size change yet',
  );

  const b = f.attach([run.id, '--plain'], { cols: 90, rows: 30 });
  await b.waitFor(() => seen.some((m) => m.t === 'size'), 15_000, 'a size message');
  t.match(
    seen.find((m) => m.t === 'size'),
    { t: 'size', cols: 90, rows: 30 },
    'the watcher follows the terminal that attached',
  );
  t.equal(await claudeSize(b), 'size: 90x30');
  b.pty.kill('SIGHUP');
  await b.exited;
});
