#!/usr/bin/env node
// Measures the hook client's cost per hook call (spawn to exit, as claude pays it): the native one runs
// use (dist/native/flower-pty-hook) beside its Node twin and bare node start-up. A part of
// scripts/bench.mjs (hookClientCost); alone it prints every case: node scripts/bench-hook-client.mjs [runs]
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const client = join(repo, 'dist', 'cli', 'hook-client.js');
const native = join(repo, 'dist', 'native', 'flower-pty-hook');

function timeOnce([file, ...args], env, stdin) {
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    const child = spawn(file, args, { env: { PATH: process.env.PATH, ...env }, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('close', () => resolve(Number(process.hrtime.bigint() - start) / 1e6));
    child.stdin.end(stdin);
  });
}

async function measure(runs, args, env, stdin = '{}') {
  await timeOnce(args, env, stdin); // warm the file cache
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await timeOnce(args, env, stdin));
  times.sort((a, b) => a - b);
  const pick = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { min: pick(0), p50: pick(0.5), p90: pick(0.9), runs };
}

/** each case's spawn-to-exit times in ms: bare node, then each client with no run, a round trip to one, and a status line with the person's own command */
export async function hookClientCost({ runs = 30 } = {}) {
  const { openHookChannel } = await import(pathToFileURL(join(repo, 'dist', 'adapters', 'hook-channel.js')).href);
  const channel = await openHookChannel({ handler: () => '{"decision":"block","reason":"x"}' });
  const env = { FLOWER_PTY_SOCKET: channel.socketPath, FLOWER_PTY_TOKEN: channel.token };
  const payload = JSON.stringify({
    session_id: 'x',
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
  });
  const out = {};
  try {
    out['node -e 0 (bare start-up)'] = await measure(runs, [process.execPath, '-e', '0'], {});
    for (const [name, command] of [
      ['Node hook client', [process.execPath, client]],
      ['native hook client', [native]],
    ]) {
      out[`${name}, no run`] = await measure(runs, [...command, 'PostToolUse'], {}, payload);
      out[`${name}, round trip to the run`] = await measure(runs, [...command, 'PostToolUse'], env, payload);
      out[`${name}, status line + the person's command`] = await measure(runs, [...command, 'statusline'], {
        ...env,
        FLOWER_PTY_USER_STATUSLINE: 'cat >/dev/null; echo hi',
      });
    }
  } finally {
    await channel.close();
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const cost = await hookClientCost({ runs: Number(process.argv[2]) || 30 });
  for (const [label, r] of Object.entries(cost)) {
    console.log(
      `${label.padEnd(52)} min ${r.min.toFixed(1)} ms  median ${r.p50.toFixed(1)} ms  p90 ${r.p90.toFixed(1)} ms  (n=${r.runs})`,
    );
  }
}
