#!/usr/bin/env node
// Measures the hook client's cost per hook call (spawn to exit, as claude pays it): the native one runs
// use (dist/native/flower-pty-hook) beside its Node twin and bare node start-up.
// Prints numbers only; run after `npm run build`: node scripts/bench-hook-client.mjs [runs]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const client = join(repo, 'dist', 'hook-client.js');
const { openHookChannel } = await import(join(repo, 'dist', 'adapters', 'hook-channel.js'));
const runs = Number(process.argv[2]) || 30;

const native = join(repo, 'dist', 'native', 'flower-pty-hook');

function timeOnce([file, ...args], env, stdin) {
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    const child = spawn(file, args, { env: { PATH: process.env.PATH, ...env }, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('close', () => resolve(Number(process.hrtime.bigint() - start) / 1e6));
    child.stdin.end(stdin);
  });
}

async function measure(label, args, env, stdin = '{}') {
  await timeOnce(args, env, stdin); // warm the file cache
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await timeOnce(args, env, stdin));
  times.sort((a, b) => a - b);
  const pick = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  console.log(`${label.padEnd(44)} min ${pick(0)} ms  median ${pick(0.5)} ms  p90 ${pick(0.9)} ms  (n=${runs})`);
}

const channel = await openHookChannel({ handler: () => '{"decision":"block","reason":"x"}' });
const env = { FLOWER_PTY_SOCKET: channel.socketPath, FLOWER_PTY_TOKEN: channel.token };
const payload = JSON.stringify({ session_id: 'x', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
try {
  await measure('node -e 0 (bare start-up)', [process.execPath, '-e', '0'], {});
  for (const [name, command] of [['Node hook client', [process.execPath, client]], ['native hook client', [native]]]) {
    await measure(`${name}, no supervisor env`, [...command, 'PostToolUse'], {}, payload);
    await measure(`${name}, round trip to supervisor`, [...command, 'PostToolUse'], env, payload);
    await measure(`${name}, statusline + user command`, [...command, 'statusline'], { ...env, FLOWER_PTY_USER_STATUSLINE: 'cat >/dev/null; echo hi' });
  }
} finally {
  await channel.close();
}
