// Tests for the hook channel over real Unix sockets, driven through the REAL compiled hook client exactly
// as claude runs it: modes, round trip, refusals, fail-open, statusline chaining. The client under test is
// the one runs use (the native dist/native/flower-pty-hook when built); hook-client-node.test.ts runs
// this same file against the Node twin (dist/cli/hook-client.js).
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';
import {
  existsSync,
  statSync,
  mkdtempSync,
  writeFileSync,
  readFileSync,
  rmSync,
  mkdirSync,
  symlinkSync,
} from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openHookChannel, hookChannelEnv } from '../../src/adapters/hook-channel.js';
import type { HookMessage, HookChannel } from '../../src/adapters/hook-channel.js';
import {
  writeRunSettings,
  findUserStatusLine,
  defaultHookCommand,
  nodeHookCommand,
} from '../../src/adapters/run-settings.js';
import { startMockApi, scripted, bash, text, usageFor } from '../../src/mock/messages-api.js';
import { createClaudeSandbox } from '../../src/mock/claude-sandbox.js';
import { runClaude } from '../helpers/real-claude.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const client = join(repo, 'dist', 'cli', 'hook-client.js');

// Build once when dist is missing or older than the source; tsc emits even if another file fails to type-check.
function ensureClientBuilt(): void {
  const src = join(repo, 'src', 'cli', 'hook-client.ts');
  if (existsSync(client) && statSync(client).mtimeMs >= statSync(src).mtimeMs) return;
  spawnSync(join(repo, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], { cwd: repo, stdio: 'ignore' });
}
ensureClientBuilt();
const CLIENT = process.env.FLOWER_PTY_TEST_HOOK_CLIENT === 'node' ? nodeHookCommand() : defaultHookCommand();

interface ClientRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

// A clean env: no inherited FLOWER_PTY_* from whatever runs these tests.
function baseEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('FLOWER_PTY_')) env[k] = v;
  return { ...env, ...extra };
}

function runCommand(
  file: string,
  args: string[],
  env: Record<string, string>,
  stdin: string,
  cwd?: string,
): Promise<ClientRun> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    // Only a safety net so a hung client fails this test instead of the whole file; not a timing assertion.
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}

const runClient = (event: string, env: Record<string, string>, stdin: string): Promise<ClientRun> =>
  runCommand(CLIENT[0]!, [...CLIENT.slice(1), event], baseEnv(env), stdin);

const channelEnv = (ch: HookChannel): Record<string, string> => hookChannelEnv(ch, null);

// Sends one raw request line over the socket and returns the raw answer.
function rawRequest(socketPath: string, line: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let answer = '';
    socket.on('error', reject);
    socket.on('data', (c: Buffer) => (answer += c.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('connect', () => socket.write(line));
  });
}

const stopPayload = {
  session_id: 'abc',
  transcript_path: '/x/abc.jsonl',
  cwd: '/x',
  hook_event_name: 'Stop',
  stop_hook_active: false,
  last_assistant_message: 'done — 交接 ✓',
};

t.test('the run folder is 0700, the socket 0600, the token 32 random bytes, the path short', async (t) => {
  const a = await openHookChannel({ handler: () => '' });
  const b = await openHookChannel({ handler: () => '' });
  t.teardown(() => Promise.all([a.close(), b.close()]));
  t.equal(statSync(a.dir).mode & 0o777, 0o700);
  t.ok(statSync(a.socketPath).isSocket());
  t.equal(statSync(a.socketPath).mode & 0o777, 0o600);
  t.equal(dirname(a.socketPath), a.dir);
  t.match(a.token, /^[0-9a-f]{64}$/);
  t.not(a.token, b.token, 'each run has its own secret');
  t.not(a.dir, b.dir, 'each run has its own folder');
  t.ok(Buffer.byteLength(a.socketPath) <= 103, `socket path fits sun_path (${a.socketPath})`);
});

t.test('hookChannelEnv names the socket and secret, and the user status line only when there is one', async (t) => {
  const ch = await openHookChannel({ handler: () => '' });
  t.teardown(() => ch.close());
  t.same(hookChannelEnv(ch, null), { FLOWER_PTY_SOCKET: ch.socketPath, FLOWER_PTY_TOKEN: ch.token });
  t.same(hookChannelEnv(ch, 'my-line.sh'), {
    FLOWER_PTY_SOCKET: ch.socketPath,
    FLOWER_PTY_TOKEN: ch.token,
    FLOWER_PTY_USER_STATUSLINE: 'my-line.sh',
  });
});

t.test('opts.dir chooses the parent of the private folder; close removes the folder', async (t) => {
  const parent = mkdtempSync(join(tmpdir(), 'fpt-'));
  t.teardown(() => rmSync(parent, { recursive: true, force: true }));
  const ch = await openHookChannel({ handler: () => '', dir: parent });
  t.equal(dirname(ch.dir), parent);
  await ch.close();
  t.notOk(existsSync(ch.dir), 'folder removed');
  await ch.close(); // a second close is harmless
  t.ok(existsSync(parent), 'the parent is left alone');
});

t.test('a socket path over the sun_path limit is refused with a one-line fix', async (t) => {
  const parent = mkdtempSync(join(tmpdir(), 'fpt-' + 'x'.repeat(120)));
  t.teardown(() => rmSync(parent, { recursive: true, force: true }));
  await t.rejects(openHookChannel({ handler: () => '', dir: parent }), { message: /TMPDIR/ });
});

t.test(
  'round trip through the real client: the handler sees the event and payload, stdout is its answer',
  async (t) => {
    const seen: HookMessage[] = [];
    const answer = JSON.stringify({ decision: 'block', reason: 'write the handoff now' });
    const ch = await openHookChannel({
      handler: async (msg) => {
        seen.push(msg);
        return answer;
      },
    });
    t.teardown(() => ch.close());
    const run = await runClient('Stop', channelEnv(ch), JSON.stringify(stopPayload));
    t.equal(run.code, 0);
    t.equal(run.stdout, answer);
    t.equal(run.stderr, '');
    t.same(seen, [{ event: 'Stop', payload: stopPayload }]);
    t.equal(ch.rejected, 0);
  },
);

t.test(
  'a pretty-printed payload with escapes and every kind of value arrives whole; an answer with escapes prints decoded',
  async (t) => {
    const seen: HookMessage[] = [];
    const output = 'line one\nline "two" \\ tab\t é 交接 😀 \u0001';
    const ch = await openHookChannel({ handler: (m) => (seen.push(m), output) });
    t.teardown(() => ch.close());
    const payload = {
      ...stopPayload,
      nested: { list: [1, -2.5e-3, 0, true, false, null, 'a\nb', '\u2028'], empty: {}, none: [] },
      quote: '"\\/',
    };
    const run = await runClient('Stop', channelEnv(ch), JSON.stringify(payload, null, 2) + '\n');
    t.same(seen, [{ event: 'Stop', payload }]);
    t.equal(run.stdout, output);
    t.equal(run.code, 0);
  },
);

t.test('stdin that is not one JSON object reaches nobody: nothing printed, exit 0', async (t) => {
  const seen: HookMessage[] = [];
  const ch = await openHookChannel({ handler: (m) => (seen.push(m), 'ANSWER') });
  t.teardown(() => ch.close());
  for (const stdin of [
    '[1, 2]',
    '"text"',
    '{"a": 1} {"b": 2}',
    '{"a": 01}',
    '{"a": "raw\u0001control"}',
    '{"a": [1,]}',
    '{"a": tru}',
    '\ufeff{"a": 1}',
    '{"a": "\\x"}',
  ]) {
    const run = await runClient('Stop', channelEnv(ch), stdin);
    t.same([run.code, run.stdout], [0, ''], `refused: ${JSON.stringify(stdin)}`);
  }
  t.same(seen, [], 'none of them was sent');
});

t.test('an empty answer prints nothing', async (t) => {
  const ch = await openHookChannel({ handler: () => '' });
  t.teardown(() => ch.close());
  const run = await runClient('PostToolUse', channelEnv(ch), '{"tool_name":"Bash"}');
  t.equal(run.code, 0);
  t.equal(run.stdout, '');
});

t.test('a wrong token gets an empty answer, never reaches the handler, and is counted', async (t) => {
  let calls = 0;
  const ch = await openHookChannel({ handler: () => (calls++, 'STEER') });
  t.teardown(() => ch.close());
  const run = await runClient('Stop', { FLOWER_PTY_SOCKET: ch.socketPath, FLOWER_PTY_TOKEN: 'f'.repeat(64) }, '{}');
  t.equal(run.code, 0);
  t.equal(run.stdout, '');
  t.equal(ch.rejected, 1);
  const short = await runClient('Stop', { FLOWER_PTY_SOCKET: ch.socketPath, FLOWER_PTY_TOKEN: 'abc' }, '{}');
  t.equal(short.stdout, '');
  t.equal(ch.rejected, 2, 'a token of another length is refused too');
  t.equal(calls, 0);
});

t.test('malformed requests and an over-long line get {"output":""} and are counted', async (t) => {
  let calls = 0;
  const ch = await openHookChannel({ handler: () => (calls++, 'STEER') });
  t.teardown(() => ch.close());
  const empty = '{"output":""}\n';
  t.equal(await rawRequest(ch.socketPath, 'not json\n'), empty);
  t.equal(await rawRequest(ch.socketPath, '[1,2]\n'), empty);
  t.equal(
    await rawRequest(ch.socketPath, JSON.stringify({ token: ch.token, event: 'Stop' }) + '\n'),
    empty,
    'no payload',
  );
  t.equal(await rawRequest(ch.socketPath, JSON.stringify({ token: ch.token, payload: {} }) + '\n'), empty, 'no event');
  t.equal(
    await rawRequest(ch.socketPath, JSON.stringify({ token: ch.token, event: 'Stop', payload: [] }) + '\n'),
    empty,
  );
  const huge = Buffer.alloc(8 * 1024 * 1024 + 10, 0x61);
  t.equal(await rawRequest(ch.socketPath, huge), empty, 'over 8 MB without a newline');
  t.equal(ch.rejected, 6);
  t.equal(calls, 0);
  const ok = await rawRequest(ch.socketPath, JSON.stringify({ token: ch.token, event: 'Stop', payload: {} }) + '\n');
  t.equal(ok, '{"output":"STEER"}\n', 'the server still answers good requests');
});

t.test('a request that half-closes without a newline is still one line', async (t) => {
  const ch = await openHookChannel({ handler: (m) => m.event });
  t.teardown(() => ch.close());
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = createConnection(ch.socketPath);
    let text = '';
    socket.on('error', reject);
    socket.on('data', (c: Buffer) => (text += c.toString()));
    socket.on('close', () => resolve(text));
    socket.on('connect', () => socket.end(JSON.stringify({ token: ch.token, event: 'Notification', payload: {} })));
  });
  t.equal(answer, '{"output":"Notification"}\n');
});

t.test('a throwing or rejecting handler fails open and the supervisor keeps serving', async (t) => {
  let mode = 'throw';
  const ch = await openHookChannel({
    handler: (msg) => {
      if (mode === 'throw') throw new Error('boom');
      if (mode === 'reject') return Promise.reject(new Error('async boom'));
      return `fine ${msg.event}`;
    },
  });
  t.teardown(() => ch.close());
  const thrown = await runClient('Stop', channelEnv(ch), '{}');
  t.equal(thrown.code, 0);
  t.equal(thrown.stdout, '');
  mode = 'reject';
  t.equal((await runClient('Stop', channelEnv(ch), '{}')).stdout, '');
  mode = 'ok';
  t.equal((await runClient('Stop', channelEnv(ch), '{}')).stdout, 'fine Stop');
  t.equal(ch.rejected, 0, 'handler errors are not refusals');
});

t.test('no supervisor: closed channel, stale socket file, no env, bad stdin: nothing printed, exit 0', async (t) => {
  const ch = await openHookChannel({ handler: () => 'SHOULD-NOT-SHOW' });
  const env = { ...channelEnv(ch), FLOWER_PTY_HOOK_TIMEOUT_MS: '600000' };
  await ch.close();
  const gone = await runClient('Stop', env, '{}');
  t.same([gone.code, gone.signal, gone.stdout, gone.stderr], [0, null, '', ''], 'socket gone (ENOENT)');

  const folder = mkdtempSync(join(tmpdir(), 'fpt-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const stale = join(folder, 'h.sock');
  writeFileSync(stale, ''); // not a listening socket: connect fails with ECONNREFUSED
  const refused = await runClient('Stop', { ...env, FLOWER_PTY_SOCKET: stale }, '{}');
  t.same([refused.code, refused.signal, refused.stdout, refused.stderr], [0, null, '', ''], 'stale socket');

  const noEnv = await runClient('Stop', {}, '{}');
  t.same([noEnv.code, noEnv.stdout, noEnv.stderr], [0, '', ''], 'no env');

  const live = await openHookChannel({ handler: () => 'SHOULD-NOT-SHOW' });
  t.teardown(() => live.close());
  const badStdin = await runClient('Stop', channelEnv(live), 'not json');
  t.same([badStdin.code, badStdin.stdout], [0, ''], 'stdin that is not a JSON object');
  const noEvent = await runCommand(CLIENT[0]!, CLIENT.slice(1), baseEnv(channelEnv(live)), '{}');
  t.same([noEvent.code, noEvent.stdout], [0, ''], 'no event argument');
});

t.test('a supervisor slower than FLOWER_PTY_HOOK_TIMEOUT_MS: nothing printed, exit 0', async (t) => {
  let release = (): void => {};
  const ch = await openHookChannel({
    handler: () => new Promise<string>((resolve) => (release = () => resolve('LATE'))),
  });
  t.teardown(async () => {
    release();
    await ch.close();
  });
  const run = await runClient('Stop', { ...channelEnv(ch), FLOWER_PTY_HOOK_TIMEOUT_MS: '200' }, '{}');
  t.same([run.code, run.signal, run.stdout], [0, null, '']);
});

const statusPayload = {
  session_id: 'abc',
  model: { id: 'claude-opus-5-5', display_name: 'Opus 5.5' },
  context_window: { context_window_size: 200000, used_percentage: 15 },
};

t.test('statusline: the supervisor records the payload and the user command prints instead', async (t) => {
  const seen: HookMessage[] = [];
  const ch = await openHookChannel({ handler: (m) => (seen.push(m), 'FLOWER-STATUS') });
  t.teardown(() => ch.close());
  const stdin = JSON.stringify(statusPayload);

  const own = await runClient('statusline', channelEnv(ch), stdin);
  t.equal(own.stdout, 'FLOWER-STATUS', 'no user statusLine: the supervisor text shows');

  const user = await runClient(
    'statusline',
    { ...channelEnv(ch), FLOWER_PTY_USER_STATUSLINE: 'cat >/dev/null; echo USER-LINE' },
    stdin,
  );
  t.same([user.code, user.stdout], [0, 'USER-LINE\n']);

  const echo = await runClient('statusline', { ...channelEnv(ch), FLOWER_PTY_USER_STATUSLINE: 'cat' }, stdin);
  t.equal(echo.stdout, stdin, 'the user command gets the same stdin');

  const secret = await runClient(
    'statusline',
    { ...channelEnv(ch), FLOWER_PTY_USER_STATUSLINE: 'echo "[$FLOWER_PTY_TOKEN]"' },
    stdin,
  );
  t.equal(secret.stdout, '[]\n', 'the run secret is not passed to the user command');

  t.equal(seen.length, 4);
  t.same(seen[1], { event: 'statusline', payload: statusPayload });
});

t.test('statusline without a supervisor still shows the user line; a failed command falls back', async (t) => {
  const stdin = JSON.stringify(statusPayload);
  const alone = await runClient('statusline', { FLOWER_PTY_USER_STATUSLINE: 'cat >/dev/null; echo USER-LINE' }, stdin);
  t.same([alone.code, alone.stdout], [0, 'USER-LINE\n']);
  const ignoresStdin = await runClient(
    'statusline',
    { FLOWER_PTY_USER_STATUSLINE: 'echo NO-READ' },
    'x'.repeat(1 << 20),
  );
  t.same([ignoresStdin.code, ignoresStdin.stdout], [0, 'NO-READ\n'], 'a command that never reads stdin (EPIPE)');
});

t.test('statusline: a user command that outlives the 5 s cap is killed, the supervisor text shows', async (t) => {
  const ch = await openHookChannel({ handler: () => 'FLOWER-STATUS' });
  t.teardown(() => ch.close());
  const folder = mkdtempSync(join(tmpdir(), 'fpt-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const marker = join(folder, 'survived');
  const command = `echo partial; sleep 8; touch '${marker}'`;
  const run = await runClient('statusline', { ...channelEnv(ch), FLOWER_PTY_USER_STATUSLINE: command }, '{}');
  t.same([run.code, run.stdout], [0, 'FLOWER-STATUS']);
  await new Promise((resolve) => setTimeout(resolve, 4_000));
  t.notOk(existsSync(marker), 'the whole process group was killed, not just the shell');
});

t.test('the settings file command, run through /bin/sh -c like claude does, reaches the supervisor', async (t) => {
  const seen: HookMessage[] = [];
  const ch = await openHookChannel({ handler: (m) => (seen.push(m), `answer to ${m.event}`) });
  t.teardown(() => ch.close());
  const file = await writeRunSettings({ dir: ch.dir, hookCommand: CLIENT, statusLine: true });
  const settings = JSON.parse(readFileSync(file, 'utf8')) as {
    hooks: Record<string, [{ hooks: [{ command: string }] }]>;
    statusLine: { command: string };
  };
  const stopCommand = settings.hooks['Stop']?.[0].hooks[0].command ?? '';
  const stop = await runCommand('/bin/sh', ['-c', stopCommand], baseEnv(channelEnv(ch)), JSON.stringify(stopPayload));
  t.same([stop.code, stop.stdout], [0, 'answer to Stop']);
  const status = await runCommand('/bin/sh', ['-c', settings.statusLine.command], baseEnv(channelEnv(ch)), '{}');
  t.same([status.code, status.stdout], [0, 'answer to statusline']);
  t.same(
    seen.map((m) => m.event),
    ['Stop', 'statusline'],
  );
});

t.test(
  'the REAL claude 2.1.332 drives the channel: hooks, a Stop block that steers, the chained status line',
  async (t) => {
    const seen: HookMessage[] = [];
    let blocked = false;
    const ch = await openHookChannel({
      handler: (m) => {
        seen.push(m);
        if (m.event === 'statusline') return 'FLOWER-STATUS';
        if (m.event !== 'Stop' || blocked) return '';
        blocked = true;
        return JSON.stringify({ decision: 'block', reason: 'CHANNEL-SAYS-WRITE-THE-DOC' });
      },
    });
    t.teardown(() => ch.close());
    const api = await startMockApi({
      respond: scripted([
        bash('echo tool-ran', usageFor(9000)),
        text('first-answer', usageFor(10000)),
        text('second-answer', usageFor(11000)),
      ]),
    });
    t.teardown(() => api.close());
    const root = t.testdir({});
    // The client reached through a hostile path, as a user's install folder might be; the shell must not run any of it.
    const hostileDir = join(root, `my "tools" 'x' $(touch pwned)`);
    mkdirSync(hostileDir);
    const hostileClient = join(hostileDir, basename(CLIENT.at(-1)!));
    symlinkSync(CLIENT.at(-1)!, hostileClient);
    const settings = await writeRunSettings({
      dir: ch.dir,
      hookCommand: [...CLIENT.slice(0, -1), hostileClient],
      statusLine: true,
    });
    // The user has a statusLine of their own; --settings must win over it and our relay must chain to it.
    const sandbox = await createClaudeSandbox({ root, baseUrl: api.url, env: { DISABLE_AUTO_COMPACT: '1' } });
    const userSettingsFile = join(sandbox.configDir, 'settings.json');
    const userSettings = JSON.parse(readFileSync(userSettingsFile, 'utf8')) as Record<string, unknown>;
    userSettings['statusLine'] = { type: 'command', command: 'cat >/dev/null; echo USER-LINE-OK' };
    writeFileSync(userSettingsFile, JSON.stringify(userSettings));
    const userLine = await findUserStatusLine({ configDir: sandbox.configDir, cwd: sandbox.projectDir });
    t.equal(userLine, 'cat >/dev/null; echo USER-LINE-OK');
    Object.assign(sandbox.env, hookChannelEnv(ch, userLine));
    const claude = runClaude({
      t,
      sandbox,
      args: ['--session-id', randomUUID(), '--settings', settings, 'run the tool please'],
    });
    const events = (name: string): HookMessage[] => seen.filter((m) => m.event === name);
    await claude.waitFor(() => events('Stop').length >= 2, 60_000, 'the second Stop through the channel');
    await claude.waitForScreen('USER-LINE-OK', 20_000);

    t.same(
      events('Stop').map((m) => m.payload['last_assistant_message']),
      ['first-answer', 'second-answer'],
    );
    t.equal(events('Stop')[1]?.payload['stop_hook_active'], true, 'the second turn was caused by our block');
    t.match(api.requests[2]?.lastUserText, /CHANNEL-SAYS-WRITE-THE-DOC/, 'the block reason reached the model');
    t.equal(events('SessionStart')[0]?.payload['source'], 'startup');
    t.match(events('UserPromptSubmit')[0]?.payload['prompt'], /run the tool please/);
    t.equal(events('PostToolUse')[0]?.payload['tool_name'], 'Bash');
    t.ok(events('statusline').length >= 1, 'our relay, not the user statusLine, is what claude ran (--settings wins)');
    t.match(events('statusline').at(-1)?.payload, { context_window: { context_window_size: Number } });
    t.notMatch(await claude.screenText(), /FLOWER-STATUS/, 'the user status line is not clobbered');
    t.equal(ch.rejected, 0);
    for (const where of [root, sandbox.projectDir, hostileDir])
      t.notOk(existsSync(join(where, 'pwned')), `nothing ran in ${where}`);
  },
);
