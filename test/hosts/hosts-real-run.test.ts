// A real run server on another host (this machine under another HOME, behind a real sshd on loopback),
// its claude a stand-in that echoes (cat): `attach HOST:ID` in the split view through ssh -t shows it and
// types into it, the split view's own detach keys (C-] d) let go of it; the chooser (alpha in the config) joins
// it the same way, what is typed reaches it alone, and C-] d there brings the chooser back; `kill HOST:ID` ends it.
import t from 'tap';
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandTerminal } from '../helpers/person-terminal.js';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { startFleet } from '../../scripts/ssh-fleet.mjs';
import { until } from '../helpers/poll.js';
import { endServers } from '../helpers/run-servers.js';

const root = mkdtempSync(join(tmpdir(), 'flower-hosts-real-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));
const fleet = await startFleet(t, root, { alpha: 'real' });
const alpha = fleet.hosts.alpha!;
t.teardown(() => endServers(alpha.runtime));

// the run on alpha, started there as a person would (-d), its "claude" an echo
const echo = join(alpha.home, 'echo.sh');
writeFileSync(echo, '#!/bin/sh\nprintf "ready\\r\\n"\nexec cat\n');
chmodSync(echo, 0o755);
const alphaEnv = {
  ...process.env,
  HOME: alpha.home,
  XDG_RUNTIME_DIR: alpha.runtime,
  CLAUDE_CONFIG_DIR: join(alpha.home, 'cfg'),
};
const started = spawnSync(
  process.execPath,
  [FLOWER_BIN, '-d', '--no-handoff', '--no-workbench', '--no-notify', '--claude', echo],
  { cwd: alpha.home, env: alphaEnv, encoding: 'utf8' },
);
const id = started.stdout.trim().split('\n')[0]!;
t.match(id, /^[a-z0-9]+$/, started.status === 0 ? 'the run on alpha started' : started.stderr);

const local = join(root, 'local');
mkdirSync(join(local, 'run'), { recursive: true, mode: 0o700 });
const env = { ...fleet.env, HOME: local, XDG_RUNTIME_DIR: join(local, 'run'), XDG_CONFIG_HOME: join(local, 'config') };

t.test('attach alpha:ID in the split view: the run shows, takes keys, and C-] d detaches', async (t) => {
  const term = commandTerminal(t, process.execPath, [FLOWER_BIN, 'attach', `alpha:${id}`], {
    name: 'xterm-256color',
    cols: 100,
    rows: 30,
    env: { ...env, TERM: 'xterm-256color' } as Record<string, string>,
    cwd: local,
  });
  const { pty } = term;
  await until("the run's screen", () => term.seen().includes('ready'), 30_000);
  pty.write('hello-over-ssh');
  await until('the echo of what was typed', () => term.seen().includes('hello-over-ssh'), 30_000);
  t.pass('typed here, echoed there, shown here');
  pty.write('\u001d');
  await new Promise((r) => setTimeout(r, 150));
  pty.write('d');
  await until('attach ended', () => term.exit() !== null, 30_000);
  t.equal(term.exit(), 0, 'detached: exit 0');
  t.match(term.seen(), new RegExp(`detached from run ${id} \\(it goes on\\)`));
});

t.test(
  'the chooser joins the run on alpha through ssh -t, keys reach it alone, C-] d is the chooser again',
  async (t) => {
    // alpha in the person's config, and a run of this machine's own (an echo too) beside it
    mkdirSync(join(local, 'config', 'flower-pty'), { recursive: true });
    writeFileSync(join(local, 'config', 'flower-pty', 'config.json'), JSON.stringify({ hosts: ['alpha'] }));
    const localEnv = { ...env, CLAUDE_CONFIG_DIR: join(local, 'cfg') };
    t.teardown(() => endServers(join(local, 'run')));
    const mine = spawnSync(
      process.execPath,
      [FLOWER_BIN, '-d', '--no-handoff', '--no-workbench', '--no-notify', '--claude', echo],
      { cwd: local, env: localEnv, encoding: 'utf8' },
    );
    const localId = mine.stdout.trim().split('\n')[0]!;
    t.match(localId, /^[a-z0-9]+$/, mine.status === 0 ? 'a run on this machine too' : mine.stderr);
    const termEnv = { ...localEnv, TERM: 'xterm-256color' } as Record<string, string>;
    const term = commandTerminal(t, process.execPath, [FLOWER_BIN, 'attach', '--choose'], {
      name: 'xterm-256color',
      cols: 100,
      rows: 30,
      env: termEnv,
      cwd: local,
    });
    const screen = () => (term.seen().split('\u001b[H').at(-1) ?? '').replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
    await until(
      'both runs listed',
      () => new RegExp(`alpha +${id}`).test(screen()) && screen().includes(localId),
      30_000,
    );
    const key = new RegExp(`^\\((\\w)\\) alpha +${id}`, 'm').exec(screen())?.[1];
    t.ok(key, `alpha's row has a shortcut:\n${screen()}`);
    const before = term.seen().length;
    term.pty.write(key!);
    // the run's screen, drawn by its own split view over ssh: the stand-in's first line
    await until("alpha's run on this terminal", () => term.seen().slice(before).includes('ready'), 30_000);
    term.pty.write('only-on-alpha');
    await until('its echo, from alpha', () => term.seen().slice(before).includes('only-on-alpha'), 30_000);
    term.pty.write('\u001d');
    await new Promise((r) => setTimeout(r, 150));
    term.pty.write('d');
    await until('the chooser again', () => new RegExp(`left run ${id} on alpha`).test(screen()), 30_000);
    t.equal(term.exit(), null, 'the chooser, not the end: the detach from alpha came back to it');
    t.match(screen(), new RegExp(`alpha +${id}`), 'the run on alpha goes on, listed');
    term.pty.write('q');
    await until('the chooser closed', () => term.exit() !== null, 10_000);
    t.equal(term.exit(), 0);
    // what was typed went to alpha's run alone: this machine's run, attached now, never had it
    const look = commandTerminal(t, process.execPath, [FLOWER_BIN, 'attach', localId], {
      name: 'xterm-256color',
      cols: 100,
      rows: 30,
      env: termEnv,
      cwd: local,
    });
    await until("this machine's run drawn", () => look.seen().includes('ready'), 30_000);
    t.notOk(look.seen().includes('only-on-alpha'), "this machine's run never had the keys typed into alpha's");
    look.pty.write('\u001d');
    await new Promise((r) => setTimeout(r, 150));
    look.pty.write('d');
    await until('detached', () => look.exit() !== null, 30_000);
  },
);

t.test('kill alpha:ID ends the real run there', async (t) => {
  const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [FLOWER_BIN, 'kill', `alpha:${id}`], { env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
  t.equal(r.code, 0, r.stderr);
  t.match(
    r.stdout,
    new RegExp(`^run ${id} ended; it ran with --no-workbench, so nothing was kept to continue from$`, 'm'),
  );
  const after = spawnSync(process.execPath, [FLOWER_BIN, 'ls', '--host', 'alpha'], { env, encoding: 'utf8' });
  t.equal(after.stdout.trim(), 'no live runs', 'alpha has no run left');
});
