// The hook channel at the supervisor level, with the fake claude holding a run above its line: a client
// without the run's token, a hook naming a retired session, and a stale socket cannot steer it; the
// run's own hook (the control) can. The socket is 0600 in a 0700 folder.
import t from 'tap';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { startFake, fakeDoc } from '../faults/fake-flower.js';
import { defaultHookCommand } from '../../src/adapters/run-settings.js';

// The hook command runs use (the native client when built), as claude would run it.
const HOOK_COMMAND = defaultHookCommand();

function envOf(pid: number): Record<string, string> {
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}

function hook(event: string, payload: Record<string, unknown>, env: Record<string, string>): string {
  const r = spawnSync(HOOK_COMMAND[0]!, [...HOOK_COMMAND.slice(1), event], {
    input: JSON.stringify(payload),
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return r.stdout.trim();
}

t.test('only the current run and session can block a boundary', async (t) => {
  // Generation 1 hands off; generation 2 reads 10k then 60k (above the 50k line) with no hook, then idles:
  // its next boundary would be cut.
  const reading = (id: string, tokens: number) =>
    JSON.stringify({
      type: 'assistant',
      message: { id, model: 'claude-sonnet-4-5', content: [], usage: { input_tokens: tokens, output_tokens: 1 } },
    }) + '\n';
  const f = startFake({
    t,
    script: {
      runs: [
        { steps: [{ turn: 60_000 }], handoff: { text: fakeDoc('HOOKS') } },
        { steps: [{ append: reading('m1', 10_000) }, { sleep: 300 }, { append: reading('m2', 60_000) }] },
      ],
    },
    prompt: 'go',
    flowerArgs: ['--window', '100k', '--review', '0'],
  });
  await f.waitForEvent('generation-start', 20_000, (e) => e.generation === 2);
  await f.run.waitFor(() => f.spawns().length === 2, 10_000, 'second spawn');
  const [first, second] = f.spawns();
  const env = envOf(second!.pid);
  const socket = env.FLOWER_PTY_SOCKET!;
  t.equal((statSync(socket).mode & 0o777).toString(8), '600', 'socket 0600');
  t.equal((statSync(dirname(socket)).mode & 0o777).toString(8), '700', 'its folder 0700');
  const own = { FLOWER_PTY_SOCKET: socket, FLOWER_PTY_TOKEN: env.FLOWER_PTY_TOKEN! };
  const session2 = second!.argv[second!.argv.indexOf('--session-id') + 1]!;
  const session1 = first!.argv[first!.argv.indexOf('--session-id') + 1]!;
  t.equal(
    hook('PostToolUse', { session_id: session2 }, {}),
    '',
    'a hook without the channel variables answers nothing',
  );
  await f.waitForEvent('near', 10_000, (e) => e.generation === 2);
  const boundary = (session: string) => ({
    session_id: session,
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: {},
    tool_response: {},
  });
  t.equal(
    hook('PostToolUse', boundary(session2), { ...own, FLOWER_PTY_TOKEN: 'f'.repeat(64) }),
    '',
    'a wrong token is refused',
  );
  t.equal(
    hook('PostToolUse', boundary(session2), {
      FLOWER_PTY_SOCKET: join(dirname(socket), 'old.sock'),
      FLOWER_PTY_TOKEN: own.FLOWER_PTY_TOKEN,
    }),
    '',
    'a stale socket path answers nothing',
  );
  t.equal(hook('PostToolUse', boundary(session1), own), '', 'a hook from the retired session passes');
  t.notOk(
    f.events().some((e) => e.event === 'writing' && e.generation === 2),
    'none of them started a handoff',
  );
  const answer = hook('PostToolUse', boundary(session2), own);
  t.match(
    JSON.parse(answer),
    { decision: 'block', reason: /Write the handoff document NOW/ },
    "the control: the run's own hook does steer",
  );
});
