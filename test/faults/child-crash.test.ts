// Faults in the child, with the fake claude: exits and kills mid-turn, mid-writing, right after a
// handoff, and a crash loop. The run goes on (degraded, recorded) or hits the documented brake (exit 4).
import t from 'tap';
import { startFake, fakeDoc, FAKE_CLAUDE } from './fake-flower.js';
import { tempRoot } from '../helpers/real-claude.js';
import { join } from 'node:path';
import { DEGRADED_MARKER } from '../../src/core/document/handoff-doc.js';
import { mkdirSync, readFileSync, realpathSync, unlinkSync, writeFileSync } from 'node:fs';

const FAST = ['--window', '100k', '--review', '0'];

t.test('claude exits with an error mid-turn: degraded handoff, recorded as a crash, the run goes on', async (t) => {
  const f = startFake({
    t,
    script: { runs: [{ steps: [{ turn: 20_000 }, { exit: 7 }] }], default: { steps: [{ turn: 8_000 }] } },
    prompt: 'ORIGINAL: fix the flaky test',
    flowerArgs: FAST,
  });
  const done = await f.waitForEvent('done', 20_000);
  t.equal(done.degraded, true);
  t.match(done.reason, /exited with code 7 during working/);
  await f.waitForEvent('generation-start', 20_000, (e) => e.generation === 2);
  const m = await f.manifestWhen((m) => m.generations?.length >= 2);
  t.match(m.generations[0], { generation: 1, end: 'crash', degraded: true });
  t.equal(m.attempts, 1, 'a crash is a failed attempt');
  t.match(m.errors, [{ generation: 1, reason: /code 7/ }]);
  const doc = readFileSync(f.documentPath, 'utf8');
  t.ok(doc.includes(DEGRADED_MARKER));
  t.match(doc, /ORIGINAL: fix the flaky test/, 'the original prompt survives in the degraded document');
  await f.run.waitFor(() => f.spawns().length >= 2, 10_000, 'second spawn');
  t.match(await f.firstPrompt(f.spawns()[1]!), /TAKING OVER[\s\S]*DEGRADED/, 'the successor is told');
});

t.test('claude SIGKILLed while writing its handoff: degraded, the run goes on', async (t) => {
  const f = startFake({
    t,
    script: {
      runs: [{ steps: [{ turn: 60_000 }], handoff: { signal: 'SIGKILL' } }],
      default: { steps: [{ turn: 8_000 }] },
    },
    prompt: 'go',
    flowerArgs: FAST,
  });
  await f.waitForEvent('writing', 20_000);
  const done = await f.waitForEvent('done', 20_000);
  t.equal(done.degraded, true);
  t.match(done.reason, /signal 9\) during writing/);
  await f.waitForEvent('generation-start', 20_000, (e) => e.generation === 2);
  const m = await f.manifestWhen((m) => m.generations?.length >= 2);
  t.match(m.generations[0], { end: 'crash' });
});

t.test(
  'a successor that dies before its first turn stops the run at once; the last frozen document stays as it was',
  async (t) => {
    const f = startFake({
      t,
      script: {
        runs: [
          { steps: [{ turn: 60_000 }], handoff: { text: fakeDoc('MARKER-GEN1') } },
          { steps: [{ print: 'Error: Invalid API key · Please run /login\r\n' }, { exit: 1 }] },
        ],
        default: { steps: [{ turn: 8_000 }] },
      },
      prompt: 'go',
      flowerArgs: FAST,
    });
    const exit = await f.run.exited;
    t.equal(exit.exitCode, 4, 'a clean stop, not a restart');
    t.match(
      f.run.output(),
      /before its first turn.*Invalid API key · Please run \/login/,
      "claude's own last lines in the message",
    );
    t.equal(f.spawns().length, 2, 'no chain of empty generations');
    const doc = readFileSync(f.documentPath, 'utf8');
    t.match(doc, /MARKER-GEN1/, 'the current document is the good one');
    t.notOk(doc.includes(DEGRADED_MARKER), 'no degraded document replaced it');
    const m = await f.manifestWhen((m) => m.generations?.[1]?.ended_at);
    t.match(m.generations[1], { end: 'crash', reason: /before its first turn/ });
    t.match(
      f.events().find((e) => e.event === 'stopped'),
      { exitCode: 4 },
    );
  },
);

t.test('repeated crashes hit the brake (exit 4), not a restart storm', async (t) => {
  const f = startFake({
    t,
    script: { default: { steps: [{ tool: 8_000 }, { exit: 3 }] } },
    prompt: 'go',
    flowerArgs: FAST,
  });
  const exit = await f.run.exited;
  t.equal(exit.exitCode, 4);
  t.match(f.run.output(), /crashed 3 times in a row/);
  t.equal(f.spawns().length, 3, 'three attempts, no more');
  const m = await f.manifestWhen((m) => m.attempts >= 3);
  t.equal(m.attempts, 3);
  t.match(
    f.events().find((e) => e.event === 'stopped'),
    { exitCode: 4 },
  );
});

t.test(
  'the claude binary removed between generations (an update gone wrong): one line, a clean stop, the lineage intact',
  async (t) => {
    const root = realpathSync(tempRoot(t, 'flower-gone-'));
    const bin = join(root, 'bin');
    mkdirSync(bin);
    const claude = join(bin, 'claude');
    writeFileSync(claude, `#!/bin/sh\nexec "${process.execPath}" "${FAKE_CLAUDE}" "$@"\n`, { mode: 0o755 });
    const f = startFake({
      t,
      root,
      claude,
      script: {
        runs: [{ steps: [{ turn: 60_000 }], handoff: { text: fakeDoc('BEFORE-THE-UPDATE') } }],
        default: { steps: [{ turn: 8_000 }] },
      },
      prompt: 'go',
      flowerArgs: ['--window', '100k', '--review', '3'],
      env: { PATH: `${join(root, 'empty')}:/usr/bin:/bin` },
    });
    await f.waitForEvent('done', 30_000);
    unlinkSync(claude);
    const exit = await f.run.exited;
    t.equal(exit.exitCode, 5, 'the documented exit code for a missing claude');
    t.match(f.run.output(), /flower-pty: .*claude/);
    t.notMatch(f.run.output(), /at .*\.js:\d+/, 'no stack trace');
    const m = await f.manifestWhen((m) => m.generations?.[0]?.end === 'handoff');
    t.equal(m.generations.length, 1, 'no half-started generation recorded');
    t.match(readFileSync(f.documentPath, 'utf8'), /BEFORE-THE-UPDATE/, 'the document is there for --continue');
  },
);
