// On a 200k window, with auto-compact off, Claude Code refuses a prompt by itself at about 177k
// (window − 20k − 3k), so a writing turn asked for at 150k could be refused before it is sent. The child's
// launch env (launchEnv) sets CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE to the window: checked here on the REAL
// claude against the mock, first that the refusal is real without it, then that the same prompt is sent with it.
import t from 'tap';
import type { Test } from 'tap';
import { randomUUID } from 'node:crypto';
import { startMockApi, scripted, text, usageFor } from '../../src/mock/messages-api.js';
import { createClaudeSandbox } from '../../src/mock/claude-sandbox.js';
import { launchEnv } from '../../src/claude-code/child-launch.js';
import { clientBlockLimit } from '../../src/claude-code/limits.js';
import { looksReady, runClaude, tempRoot } from '../helpers/real-claude.js';

const WINDOW = 200_000; // claude-sonnet-4-5, the sandbox model
const CLIMBED = 178_000; // past the 177k client line, well inside the window

async function secondTurn(t: Test, useLaunchEnv: boolean): Promise<{ mainRequests: number; screen: string }> {
  const api = await startMockApi({
    respond: scripted([
      text('climbed past the client line', usageFor(CLIMBED)),
      text('SECOND-TURN-SENT', usageFor(CLIMBED + 1_000)),
    ]),
  });
  t.teardown(() => api.close());
  const root = tempRoot(t);
  const sandbox = await createClaudeSandbox({ root, baseUrl: api.url, env: { DISABLE_AUTO_COMPACT: '1' } });
  const env = useLaunchEnv
    ? launchEnv({
        sessionId: '',
        settingsPath: null,
        userArgs: [],
        prompt: null,
        handoff: true,
        keepAutoCompact: false,
        baseEnv: sandbox.env,
        channel: null,
        userStatusLine: null,
        window: WINDOW,
      })
    : sandbox.env;
  const claude = runClaude({ t, sandbox: { ...sandbox, env }, args: ['--session-id', randomUUID(), 'first turn'] });
  await claude.waitForScreen('climbed past the client line', 90_000);
  await claude.waitFor(async () => looksReady(await claude.screenText()), 30_000, 'the idle prompt');
  claude.pty.write('now write the handoff document');
  await claude.waitForScreen('now write the handoff document', 10_000);
  claude.pty.write('\r');
  const screen = await claude.waitForScreen(/SECOND-TURN-SENT|Context limit reached/, 60_000);
  return { mainRequests: api.requests.filter((r) => r.isMain).length, screen };
}

t.test('without the override: claude refuses the prompt at 178k on a 200k window by itself', async (t) => {
  t.equal(clientBlockLimit(WINDOW), 177_000);
  const { mainRequests, screen } = await secondTurn(t, false);
  t.match(screen, /Context limit reached/);
  t.equal(mainRequests, 1, 'the second prompt never reached the API');
});

t.test('with the launch env: the same prompt is sent, so the writing turn has the whole window', async (t) => {
  t.equal(clientBlockLimit(WINDOW, WINDOW), WINDOW, 'the refusal line the machine should model');
  const { mainRequests, screen } = await secondTurn(t, true);
  t.match(screen, /SECOND-TURN-SENT/);
  t.equal(mainRequests, 2, 'the API got the second prompt');
});
