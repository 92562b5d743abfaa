// The chooser (`attach --choose`) in a real terminal with the hosts of the person's config asked through a
// real sshd on loopback: a host's runs are listed with the host named beside this machine's, and a host that
// accepts and never speaks has a line saying so while this machine's rows are listed and usable at once.
import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { commandTerminal } from '../helpers/person-terminal.js';
import { until } from '../helpers/poll.js';
import { startFleet } from '../../scripts/ssh-fleet.mjs';
import { askingStatus, startFakeRun } from '../helpers/wire-server.js';
import { openSocketDir } from '../../src/server/socket-dir.js';

const root = mkdtempSync(join(tmpdir(), 'flower-hosts-chooser-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));

const fleet = await startFleet(t, root, { alpha: 'real' });
const local = join(root, 'local');
mkdirSync(join(local, 'run'), { recursive: true, mode: 0o700 });
mkdirSync(join(local, 'config', 'flower-pty'), { recursive: true });
writeFileSync(join(local, 'config', 'flower-pty', 'config.json'), JSON.stringify({ hosts: ['alpha', 'hanging'] }));
const env = {
  ...fleet.env,
  HOME: local,
  XDG_RUNTIME_DIR: join(local, 'run'),
  XDG_CONFIG_HOME: join(local, 'config'),
  TERM: 'xterm-256color',
} as Record<string, string>;

const alphaRun = await startFakeRun(await openSocketDir({ XDG_RUNTIME_DIR: fleet.hosts.alpha!.runtime }), 'aaaa1111', {
  info: {
    cwd: '/srv/alpha/proj',
    status: { ...askingStatus('Bash touch x'), workbench: '/srv/alpha/proj/.flower' },
  },
});
const localRun = await startFakeRun(await openSocketDir(env), 'llll1111', { info: { cwd: '/home/me/proj' } });
t.teardown(() => alphaRun.close());
t.teardown(() => localRun.close());

t.test("a host's runs named by their host; a hung host says so, this machine's rows usable at once", async (t) => {
  const term = commandTerminal(t, process.execPath, [FLOWER_BIN, 'attach', '--choose'], {
    name: 'xterm-256color',
    cols: 100,
    rows: 30,
    env,
    cwd: local,
  });
  // the last paint, as plain lines
  const screen = () => (term.seen().split('\u001b[H').at(-1) ?? '').replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
  // this machine's row comes while the hung host is still being asked (its connect timeout is seconds away)
  await until("this machine's run listed", () => /local +llll1111/.test(screen()), 30_000);
  t.match(screen(), /^ {2}hanging: asked \d+s ago, no answer yet$/m, 'the hung host says so, and holds back nothing');
  await until(
    "this machine's run and alpha's listed",
    () => /local +llll1111/.test(screen()) && /alpha +aaaa1111/.test(screen()),
    30_000,
  );
  const shown = screen();
  t.match(
    shown,
    /^\(0\) alpha +aaaa1111 .*waiting for your permission: Bash touch x/m,
    "the host's waiting run first, its host named",
  );
  t.match(shown, /^\(\w\) local +llll1111 .*\/home\/me\/proj/m, "this machine's run beside it");
  t.match(
    shown,
    /^ {2}hanging: (asked \d+s ago, no answer yet|unreachable over ssh .*)$/m,
    "the hung host's line still says so",
  );
  t.notMatch(shown, /hanging: hanging/, 'its name once');
  // usable while the hung host is still asked: the filter narrows to this machine's run at once
  term.pty.write('/llll');
  await until(
    'the filter narrowed the list to the local run',
    () => /local +llll1111/.test(screen()) && !/alpha +aaaa1111/.test(screen()),
    10_000,
  );
  t.match(screen(), /^\/llll +1 match/m, 'the filter line counts the one match');
  term.pty.write('\u001b');
  term.pty.write('q');
  await until('the chooser closed', () => term.exit() !== null, 10_000);
  t.equal(term.exit(), 0, 'q closes it, the hung host holding nothing back');
});
