// attach, kill and report of a run on another host (HOST:ID), against a real sshd on loopback: the
// host's own command runs over ssh, so its words and exit codes are the local command's; `attach` goes
// through ssh -t, which carries the detach key and the window's size; `report` draws here the lineage the
// host read there.
import t from 'tap';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandTerminal } from '../helpers/person-terminal.js';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { startFleet } from '../../scripts/ssh-fleet.mjs';
import { startFakeRun } from '../helpers/wire-server.js';
import { until } from '../helpers/poll.js';
import { doc, makeLineage } from '../helpers/report-lineage.js';
import { openSocketDir } from '../../src/server/socket-dir.js';
import { ownCommandHere } from '../../src/adapters/own-command-here.js';

const root = mkdtempSync(join(tmpdir(), 'flower-hosts-run-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));

function flower(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd = root,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [FLOWER_BIN, ...args], { env, cwd, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const fleet = await startFleet(t, root, { alpha: 'real', bare: 'none' });
const local = join(root, 'local');
mkdirSync(join(local, 'run'), { recursive: true, mode: 0o700 });
const env = { ...fleet.env, HOME: local, XDG_RUNTIME_DIR: join(local, 'run'), XDG_CONFIG_HOME: join(local, 'config') };
const alphaSockets = await openSocketDir({ XDG_RUNTIME_DIR: fleet.hosts.alpha!.runtime });

t.test('kill HOST:ID: the host ends its run, in the local words and codes', async (t) => {
  const run = await startFakeRun(alphaSockets, 'kkkk1111');
  t.teardown(() => run.close());
  const missing = await flower(['kill', 'alpha:nope1'], env);
  t.equal(missing.code, 2, 'no such run there: the local code');
  t.match(missing.stderr, /^flower-pty: no live run has id nope1; live runs: kkkk1111/m);
  const r = await flower(['kill', 'alpha:kkkk1111'], env);
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, /^run kkkk1111 ended; pick the lineage up with flower-pty --continue$/m);
  t.ok(
    run.received.some((m) => m.t === 'kill'),
    'the run was asked to end',
  );
  const unreachable = await flower(['kill', 'closed:kkkk1111'], env);
  t.equal(unreachable.code, 2, 'a host that cannot be reached: exit 2, as in ls, attach and report');
  t.match(unreachable.stderr, /^flower-pty: closed: unreachable over ssh/m);
  const bare = await flower(['kill', 'bare:kkkk1111'], env);
  t.match(bare.stderr, /^flower-pty: bare: no flower-pty there/m);
  // a target that looks like an ssh option never reaches ssh: the command line refuses it as flags
  const marker = join(root, 'proxy-ran');
  const bad = await flower(['kill', `-oProxyCommand=touch ${marker}:kkkk1111`], env);
  t.equal(bad.code, 2);
  t.equal(
    bad.stderr.trim(),
    `flower-pty: unknown flag -oProxyCommand=touch ${marker}:kkkk1111 for flower-pty kill (see ${ownCommandHere(env, root)} kill --help)`,
    'named once, as typed',
  );
  t.notOk(existsSync(marker), 'no ProxyCommand ran');
});

t.test('attach HOST:ID over ssh -t: the run on this terminal, its size followed, the detach key', async (t) => {
  const run = await startFakeRun(alphaSockets, 'tttt2222');
  t.teardown(() => run.close());
  const term = commandTerminal(
    t,
    process.execPath,
    [FLOWER_BIN, 'attach', 'alpha:tttt2222', '--plain', '--detach-key', 'C-\\'],
    { cols: 90, rows: 28, env: env as Record<string, string>, cwd: root },
  );
  const { pty } = term;
  await until("the host's attach said hello", () => run.received.some((m) => m.t === 'hello'), 30_000);
  const hello = run.received.find((m) => m.t === 'hello') as { cols?: number; rows?: number };
  t.match(hello, { cols: 90, rows: 28 }, "the remote attach has this window's size");
  pty.resize(120, 40);
  await until(
    'the new size reached the run',
    () => JSON.stringify(run.received).includes('"cols":120') && JSON.stringify(run.received).includes('"rows":40'),
    30_000,
  );
  t.pass('a resize here reached the run there');
  // The host's attach may be its native client handing over to the Node one, whose hello (already at the
  // new size) comes before its face puts the terminal in raw mode; a key the run receives says it is raw
  // (a cooked terminal holds a line back), so the detach key is then a key, not the line discipline's SIGQUIT.
  pty.write('k');
  await until('a key reached the run', () => run.received.some((m) => m.t === 'input' && m.data.includes('k')), 30_000);
  pty.write('\u001c');
  await until('attach ended', () => term.exit() !== null, 30_000);
  t.equal(term.exit(), 0, term.seen());
  t.match(term.seen(), /detached from run tttt2222 \(it goes on\)/);
});

t.test("report HOST:ID: the host's lineage drawn here", async (t) => {
  const lineage = makeLineage([
    {
      sessionId: 'aaaaaaaa-0000-4000-8000-000000000001',
      readings: [
        { context: 40_000, after: 1000 },
        { context: 120_000, after: 2000 },
      ],
      end: 'handoff',
      document: doc('carry on'),
    },
    { sessionId: 'aaaaaaaa-0000-4000-8000-000000000002', readings: [{ context: 20_000, after: 1000 }], end: 'running' },
  ]);
  t.teardown(() => rmSync(lineage.root, { recursive: true, force: true }));
  const run = await startFakeRun(alphaSockets, 'rrrr3333', {
    info: { workbench: lineage.workbench, cwd: lineage.project },
  });
  t.teardown(() => run.close());
  const r = await flower(['report', 'alpha:rrrr3333'], env);
  t.equal(r.code, 0, r.stderr);
  const file = join(root, 'report-alpha-rrrr3333.html');
  t.match(r.stdout, `report: ${file} (2 generation(s)`);
  t.ok(existsSync(file));
  t.match(readFileSync(file, 'utf8'), /<html/);
  const missing = await flower(['report', 'alpha:zzzz9'], env);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /no live run on alpha has id zzzz9; live runs there: rrrr3333/);
});

t.test('a host that cannot be reached: one line and exit 2 in ls, attach, kill and report alike', async (t) => {
  const codes: Record<string, number> = {};
  for (const args of [
    ['ls', '--host', 'closed'],
    ['attach', 'closed:kkkk1111'],
    ['kill', 'closed:kkkk1111'],
    ['report', 'closed:kkkk1111'],
  ]) {
    const r = await flower(args, env);
    codes[args[0]!] = r.code;
    t.match(r.stdout + r.stderr, /closed: unreachable over ssh/, `${args[0]} says the host is unreachable`);
  }
  t.same(codes, { ls: 2, attach: 2, kill: 2, report: 2 });
});
