// The native clients and their Node twins make the same decision on every edge case of one table
// (test/fixtures/native-edge-cases.ts): each case runs through both, on real sockets, and both must reach
// the decision written there. The hook client against a real hook channel (what reached the run, what it
// printed); the attach client in a real pty against a server that sends the case's frames (the exit status,
// the lines it printed, the editor's run).
import t, { type Test } from 'tap';
import { spawn as spawnChild } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn as spawnPty } from '@lydell/node-pty';
import { openHookChannel, hookChannelEnv } from '../../src/adapters/hook-channel.js';
import { nodeHookCommand } from '../../src/adapters/run-settings.js';
import { createFrameReader, parseClientMessage, WIRE_VERSION, type ClientMessage } from '../../src/server/wire.js';
import { HOOK_CASES, ATTACH_CASES, type AttachCase, type HookCase } from '../fixtures/native-edge-cases.js';
import { REPO } from '../helpers/flower-run.js';

const NATIVE_HOOK = join(REPO, 'dist', 'native', 'flower-pty-hook');
const NATIVE_ATTACH = join(REPO, 'dist', 'native', 'flower-pty-attach');
const BIN = join(REPO, 'bin', 'flower-pty.js');

// A clean env: no FLOWER_PTY_* from whatever runs these tests.
function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('FLOWER_PTY_')) env[k] = v;
  return { ...env, ...extra };
}

async function hookDecision(command: string[], c: HookCase): Promise<HookCase['decision']> {
  let sent: unknown = null;
  const channel = await openHookChannel({
    handler: (message) => {
      sent = message.payload;
      return new Promise((resolve) => setTimeout(() => resolve('answered'), c.answerAfterMs ?? 0));
    },
  });
  try {
    const printed = await new Promise<string>((resolve) => {
      const child = spawnChild(command[0]!, [...command.slice(1), 'Stop'], {
        env: cleanEnv({ ...hookChannelEnv(channel, null), ...c.env }),
      });
      let out = '';
      // only a net so a hung client fails this case, not the file
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('close', () => {
        clearTimeout(killer);
        resolve(out);
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(c.stdin);
    });
    return { sent, printed };
  } finally {
    await channel.close();
  }
}

for (const c of HOOK_CASES) {
  t.test(`hook: ${c.name}`, async (t) => {
    t.ok(existsSync(NATIVE_HOOK), 'the native hook client is built (npm run build, a C compiler)');
    for (const [who, command] of [
      ['native', [NATIVE_HOOK]],
      ['node', nodeHookCommand()],
    ] as const) {
      t.same(await hookDecision([...command], c), c.decision, `the ${who} client`);
    }
  });
}

// A run server that says the case's frames after the hello, answers an `edited` with the run's end, and hangs up.
async function scriptedServer(t: Test, c: AttachCase): Promise<{ runtime: string }> {
  const runtime = mkdtempSync(join(tmpdir(), 'flower-edge-'));
  t.teardown(() => rmSync(runtime, { recursive: true, force: true }));
  const dir = join(runtime, 'flower-pty');
  mkdirSync(dir, { mode: 0o700 });
  const frame = (json: string): Buffer => {
    const body = Buffer.from(json.replace('%v', String(WIRE_VERSION)));
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length);
    return Buffer.concat([head, body]);
  };
  const server = createServer((socket: Socket) => {
    socket.on('error', () => undefined);
    const reader = createFrameReader<ClientMessage>({
      validate: parseClientMessage,
      onError: () => socket.destroy(),
      onMessage: (m) => {
        if (m.t === 'hello') {
          for (const f of c.frames) socket.write(frame(f));
          if (!c.frames.at(-1)!.includes('"edit"')) setTimeout(() => socket.end(), 300);
        } else if (m.t === 'edited') socket.end(frame('{"t":"bye","reason":"ended","exitCode":0}'));
      },
    });
    socket.on('data', (chunk: Buffer) => reader.push(chunk));
  });
  await new Promise<void>((resolve) => server.listen(join(dir, 'edge1.sock'), resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { runtime };
}

async function attachDecision(
  t: Test,
  file: string,
  args: string[],
  c: AttachCase,
): Promise<{ exit: number; output: string; editor: string | null }> {
  const { runtime } = await scriptedServer(t, c);
  // the editor writes down what it was asked to open
  const editorLog = join(runtime, 'editor.log');
  const editor = join(runtime, 'editor.sh');
  writeFileSync(editor, `#!/bin/sh\nprintf %s "$1" > '${editorLog}'\n`);
  chmodSync(editor, 0o755);
  const pty = spawnPty(file, args, {
    cols: 80,
    rows: 24,
    cwd: runtime,
    env: cleanEnv({ XDG_RUNTIME_DIR: runtime, VISUAL: editor }),
  });
  let output = '';
  pty.onData((d) => (output += d));
  const killer = setTimeout(() => pty.kill('SIGKILL'), 30_000);
  const exit = await new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
  clearTimeout(killer);
  return { exit, output, editor: existsSync(editorLog) ? readFileSync(editorLog, 'utf8') : null };
}

for (const c of ATTACH_CASES) {
  t.test(`attach: ${c.name}`, async (t) => {
    t.ok(existsSync(NATIVE_ATTACH), 'the native attach client is built (npm run build, a C compiler)');
    const runs = [
      ['native', NATIVE_ATTACH, [BIN, 'attach', '--plain', 'edge1']],
      ['node', process.execPath, [BIN, 'attach', '--plain', 'edge1']],
    ] as const;
    for (const [who, file, args] of runs) {
      const got = await attachDecision(t, file, [...args], c);
      t.equal(got.exit, c.decision.exit, `the ${who} client's exit status (${JSON.stringify(got.output.slice(-300))})`);
      for (const line of c.decision.lines) t.match(got.output, line, `the ${who} client says so`);
      t.equal(got.editor, c.decision.editor, `the ${who} client's editor`);
    }
  });
}
