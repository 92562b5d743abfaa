// `attach ID` (the Node client) on a real terminal rings it, with the bell and the desktop-notification
// escapes, when another run of the person starts waiting for them; with notifications off, it does not.
import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { commandTerminal } from '../helpers/person-terminal.js';
import { until } from '../helpers/poll.js';
import { askingStatus as asking, startFakeRun } from '../helpers/wire-server.js';
import { openSocketDir } from '../../src/server/socket-dir.js';

for (const notify of ['true', 'false']) {
  t.test(`FLOWER_PTY_NOTIFY=${notify}`, async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'fp-ring-'));
    t.teardown(() => rmSync(root, { recursive: true, force: true }));
    mkdirSync(join(root, 'run'), { recursive: true, mode: 0o700 });
    const env = {
      ...process.env,
      HOME: root,
      XDG_RUNTIME_DIR: join(root, 'run'),
      XDG_CONFIG_HOME: join(root, 'config'),
      TERM: 'xterm-256color',
      FLOWER_PTY_NO_NATIVE: '1',
      FLOWER_PTY_NOTIFY: notify,
    } as Record<string, string>;
    const dir = await openSocketDir(env);
    const front = await startFakeRun(dir, 'front1');
    const other = await startFakeRun(dir, 'other1', { info: { cwd: '/w/other' } });
    t.teardown(() => front.close());
    t.teardown(() => other.close());
    const term = commandTerminal(t, process.execPath, [FLOWER_BIN, 'attach', 'front1'], {
      name: 'xterm-256color',
      cols: 100,
      rows: 30,
      env,
      cwd: root,
    });
    await until('the client said hello', () => front.received.some((m) => m.t === 'hello'), 20_000);
    // a look of the watcher at nobody waiting (each look asks the other run's server; the second asking
    // means the first answer was read), then it waits
    await until(
      'a first look at the other run',
      () => other.received.filter((m) => m.t === 'hello').length >= 2,
      20_000,
    );
    other.info.status = asking('Bash touch x');
    if (notify === 'true') {
      await until(
        'the terminal rang',
        () => term.seen().includes('\u001b]9;flower-pty: run other1 waits for you'),
        15_000,
      );
      t.match(
        term.seen(),
        /\u0007\u001b\]9;flower-pty: run other1 waits for you: waiting for your permission: Bash touch x \(\/w\/other\)\u0007/,
        'the bell, then the notification',
      );
    } else {
      // the watcher looked at the waiting run twice (each look asks its server) and rang nothing
      const asked = () => other.received.filter((m) => m.t === 'hello').length;
      const before = asked();
      await until('two more looks at the other run', () => asked() >= before + 2, 15_000);
      t.notMatch(term.seen(), /\u001b\]9;|\u001b\]777;/, 'notifications off: no notification');
    }
    term.pty.kill('SIGKILL');
  });
}
