// Tests for the other runs' bell: whose setting rings it (the person's `notify`, the variable over the
// user's config file, as a run started here takes it), and the watcher over real sockets ringing once.
import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { personNotifies } from '../../src/server/elsewhere-watch.js';

t.test("the person's notify setting: on by default, off by the variable or the user's config", async (t) => {
  const home = t.testdir();
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
  t.equal(personNotifies(env), true, 'no config, no variable: on, as a run is');
  t.equal(personNotifies({ ...env, FLOWER_PTY_NOTIFY: 'false' }), false, 'the variable turns it off');
  mkdirSync(join(home, 'config', 'flower-pty'), { recursive: true });
  writeFileSync(join(home, 'config', 'flower-pty', 'config.json'), JSON.stringify({ notify: false }));
  t.equal(personNotifies(env), false, "the user's config turns it off");
  t.equal(personNotifies({ ...env, FLOWER_PTY_NOTIFY: 'true' }), true, 'the variable over the config');
  t.equal(personNotifies({ ...env, FLOWER_PTY_NOTIFY: 'maybe' }), false, 'a setting that cannot be read rings nothing');
});

t.test(
  'the watcher over real sockets: rings once when another run starts waiting, not for the run in front',
  async (t) => {
    const { startFakeRun, askingStatus: asking } = await import('../helpers/wire-server.js');
    const { openSocketDir } = await import('../../src/server/socket-dir.js');
    const { watchElsewhere } = await import('../../src/server/elsewhere-watch.js');
    const { until, sleep } = await import('../helpers/poll.js');
    // a short folder of its own: a socket's path must fit in a unix address
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const runtime = mkdtempSync(join(tmpdir(), 'fp-ew-'));
    t.teardown(() => rmSync(runtime, { recursive: true, force: true }));
    const dir = await openSocketDir({ XDG_RUNTIME_DIR: runtime });
    const front = await startFakeRun(dir, 'front1');
    const other = await startFakeRun(dir, 'other1', { info: { cwd: '/w/other' } });
    t.teardown(() => front.close());
    t.teardown(() => other.close());
    const alerts: string[] = [];
    const counts: number[] = [];
    let looks = 0;
    const stop = watchElsewhere({
      dir,
      selfId: () => 'front1',
      onCount: (n) => counts.push(n),
      onAlert: (a) => alerts.push(`${a.title} | ${a.body}`),
      notify: true,
      everyMs: 30,
    });
    t.teardown(stop);
    const stopQuiet = watchElsewhere({
      dir,
      selfId: () => 'front1',
      onCount: () => looks++,
      onAlert: (a) => alerts.push(`QUIET ${a.title}`),
      notify: false,
      everyMs: 30,
    });
    t.teardown(stopQuiet);
    await sleep(200); // a few looks at nobody waiting
    t.same(alerts, [], 'nothing waits: nothing rings');
    front.info.status = asking('Bash in front');
    other.info.status = asking('Bash touch x');
    await until('the other run rang', () => alerts.length > 0, 10_000);
    await sleep(300); // more looks at the same wait
    t.same(
      alerts,
      ['flower-pty: run other1 waits for you | waiting for your permission: Bash touch x (/w/other)'],
      'once, for the other run only; the quiet watcher rang nothing',
    );
    t.same(counts, [1], 'the status bar count as before');
    t.equal(looks, 1, 'the quiet watcher still counted');
  },
);

t.test('the run server counts for a split view it draws whose client does not count (the native one)', async (t) => {
  const { countedByServer } = await import('../../src/server/elsewhere-faces.js');
  const hello = { t: 'hello' as const, version: 1, role: 'attach' as const, tty: '/dev/pts/3', face: 'split' as const };
  t.equal(countedByServer(hello), true, "the native client's hello");
  t.equal(countedByServer({ ...hello, chooser: true }), false, 'a Node client counts itself and says elsewhere');
  t.equal(countedByServer({ ...hello, face: 'plain' }), false, 'a plain face has no status bar');
  t.equal(countedByServer({ ...hello, watch: true }), false, 'a watcher');
  t.equal(countedByServer({ t: 'hello', version: 1, role: 'attach', face: 'split' }), false, 'no terminal to draw');
  t.equal(countedByServer({ ...hello, role: 'query' }), false, 'a query');
});
