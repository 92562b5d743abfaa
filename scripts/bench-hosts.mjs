#!/usr/bin/env node
// Runs on other machines measured, against a real sshd on loopback (scripts/ssh-fleet.mjs: each "host" is
// this machine under another HOME): `flower-pty ls` over two hosts beside each host's own ls over ssh
// (the hosts are asked at once, so the whole should cost the slowest host plus flower-pty's own start),
// and a local run page's key echo in the web face while it follows ten hosts (each asked over ssh every
// 10 s) beside the same with none. Alone: node scripts/bench-hosts.mjs [rounds]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startFleet } from './ssh-fleet.mjs';
import { webBench } from './bench-web.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const FLOWER = join(REPO, 'bin', 'flower-pty.js');
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function timed(command, args, env) {
  const t0 = performance.now();
  const r = spawnSync(command, args, { env, encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(' ')}: exit ${r.status}: ${String(r.stderr).trim().slice(0, 120)}`);
  return performance.now() - t0;
}

/** { twoHostsMs, slowestOwnMs (both hosts' own ls at once), aloneMs (the slower asked alone), rounds } or { error } */
export async function lsOverHosts({ rounds = 9 } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'flower-bench-hosts-'));
  const teardowns = [];
  try {
    const fleet = await startFleet({ teardown: (fn) => teardowns.push(fn) }, root, { alpha: 'real', beta: 'real' });
    mkdirSync(join(root, 'local', 'run'), { recursive: true, mode: 0o700 });
    const env = { ...fleet.env, HOME: join(root, 'local'), XDG_RUNTIME_DIR: join(root, 'local', 'run') };
    const own = (host) =>
      timed('ssh', ['-T', '-F', fleet.config, host, 'flower-pty', 'ls', '--json', '--wire-version'], env);
    // one round unmeasured: the first start of each compiles and fills the page cache
    own('alpha');
    timed(process.execPath, [FLOWER, 'ls', '--host', 'alpha', '--host', 'beta'], env);
    // The reference: both hosts' own ls over plain ssh, started at once, until the slower is done. On
    // loopback the "hosts" share this machine's cores, so they are asked at once here too (each alone
    // would leave out the two remote starts' contention, which is the machine's, not flower-pty's).
    const ownBoth = async () => {
      const t0 = performance.now();
      await Promise.all(
        ['alpha', 'beta'].map(
          (host) =>
            new Promise((resolve) => {
              spawn('ssh', ['-T', '-F', fleet.config, host, 'flower-pty', 'ls', '--json', '--wire-version'], {
                env,
                stdio: 'ignore',
              }).once('close', resolve);
            }),
        ),
      );
      return performance.now() - t0;
    };
    const both = [];
    const slowest = [];
    const alone = [];
    for (let i = 0; i < rounds; i++) {
      alone.push(Math.max(own('alpha'), own('beta')));
      slowest.push(await ownBoth());
      both.push(timed(process.execPath, [FLOWER, 'ls', '--host', 'alpha', '--host', 'beta'], env));
    }
    return { twoHostsMs: median(both), slowestOwnMs: median(slowest), aloneMs: median(alone), rounds };
  } catch (error) {
    return { error: String(error.message ?? error).slice(0, 160) };
  } finally {
    for (const fn of teardowns) await fn();
    rmSync(root, { recursive: true, force: true });
  }
}

/** the web face's local key echo with no hosts and while it follows ten: { none, ten } or { error } */
export async function echoBesideHosts({ keys = 1000 } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'flower-bench-hosts-web-'));
  const teardowns = [];
  try {
    const names = Array.from({ length: 10 }, (_, i) => `h${i}`);
    const fleet = await startFleet(
      { teardown: (fn) => teardowns.push(fn) },
      root,
      Object.fromEntries(names.map((n) => [n, 'real'])),
    );
    const config = join(root, 'config');
    mkdirSync(join(config, 'flower-pty'), { recursive: true });
    writeFileSync(join(config, 'flower-pty', 'config.json'), JSON.stringify({ hosts: names }));
    const none = await webBench({ keys, idleS: 1, frames: 1 });
    // the key burst lasts past a round of asking (every 10 s): keys enough for 20 s and more
    const ten = await webBench({
      keys,
      idleS: 1,
      frames: 1,
      webEnv: { XDG_CONFIG_HOME: config, FLOWER_PTY_SSH_CONFIG: fleet.config },
    });
    if (none.error || ten.error) return { error: none.error ?? ten.error };
    return { none: none.keys, ten: ten.keys };
  } catch (error) {
    return { error: String(error.message ?? error).slice(0, 160) };
  } finally {
    for (const fn of teardowns) await fn();
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rounds = Number(process.argv[2]) || 9;
  console.log(
    JSON.stringify({ ls: await lsOverHosts({ rounds }), echo: await echoBesideHosts({ keys: 300 }) }, null, 1),
  );
  process.exit(0);
}
