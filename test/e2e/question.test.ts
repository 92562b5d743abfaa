// End to end against the REAL claude 2.1.332: a question claude asks its person (AskUserQuestion) is shown
// and told as the question with its choices, in the events, the title, `flower-pty ls` and the
// --notify-command, and it clears once the person answers.
import t from 'tap';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { text, usageFor, type MockRequest } from '../../src/mock/messages-api.js';
import { startFlower, FLOWER_BIN } from '../helpers/flower-run.js';

const ASKED = 'claude asks: Which parser should we use? (Hand-written / Generated)';

function ls(env: Record<string, string>): Promise<string> {
  return new Promise((resolve) =>
    execFile(process.execPath, [FLOWER_BIN, 'ls'], { env, timeout: 30_000 }, (_e, out) => resolve(out)),
  );
}

t.test('a question is told as the question and its choices, and clears when answered', async (t) => {
  let step = 0;
  const respond = (req: MockRequest) => {
    if (!req.isMain) return text('side');
    step++;
    if (step > 1) return text('going with it', usageFor(13_000));
    return {
      kind: 'tool' as const,
      name: 'AskUserQuestion',
      usage: usageFor(12_000),
      input: {
        questions: [
          {
            question: 'Which parser\nshould we use?',
            header: 'Parser',
            options: [
              { label: 'Hand-written', description: 'a small recursive descent' },
              { label: 'Generated', description: 'from a grammar' },
            ],
            multiSelect: false,
          },
        ],
      },
    };
  };
  const told = join(process.env.TMPDIR ?? '/tmp', `flower-question-${process.pid}-${Date.now()}.txt`);
  t.teardown(() => void import('node:fs').then((fs) => fs.rmSync(told, { force: true })));
  const f = await startFlower({
    t,
    respond,
    prompt: 'ask me something',
    flowerArgs: [
      '--window',
      '100k',
      '--notify-command',
      `printf '%s\\n' "$FLOWER_PTY_EVENT|$FLOWER_PTY_MESSAGE" >> '${told}'`,
    ],
  });
  const asked = await f.waitForEvent('question', 60_000);
  t.match(
    asked,
    { tool: 'AskUserQuestion', question: 'Which parser should we use? (Hand-written / Generated)' },
    'one line: the break in the question is gone',
  );
  t.notOk(
    f.events().some((e) => e.event === 'needs-permission'),
    'not "waiting for your permission: AskUserQuestion"',
  );
  await f.run.waitFor(() => f.run.output().includes(ASKED), 20_000, 'the title says what claude asks');
  t.match(
    f.run.output(),
    new RegExp(`\\u001b\\]0;[^\\u0007]*${ASKED.replace(/[()?]/g, '\\$&')}`),
    'in the terminal title',
  );
  const env = { PATH: process.env.PATH ?? '', HOME: f.sandbox.home, XDG_RUNTIME_DIR: f.runtime };
  t.match(
    await ls(env),
    ASKED.replace('claude asks:', 'asking you a question:'),
    "ls shows what the run needs, in the one picture's words",
  );
  await f.run.waitFor(
    () => existsSync(told) && readFileSync(told, 'utf8').includes('question|'),
    20_000,
    'the notify command ran',
  );
  t.match(readFileSync(told, 'utf8'), `question|flower-pty (`);
  t.match(readFileSync(told, 'utf8'), `): ${ASKED}\n`);

  await f.run.waitForScreen('Hand-written', 20_000);
  f.run.pty.write('\r');
  await f.run.waitForScreen(/Submit answers|submit/i, 10_000).then(
    () => f.run.pty.write('\r'),
    () => undefined,
  );
  await f.run.waitForScreen('going with it', 30_000);
  await f.run.waitFor(
    async () => !(await ls(env)).includes('asking you a question'),
    20_000,
    'ls no longer shows the question',
  );
});
