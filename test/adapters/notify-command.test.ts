// The --notify-command runner with real /bin/sh: the event only through the environment (a hostile
// message never executes), the time limit kills a hanging command without blocking, the rate limit,
// bounded output to the log, and the cap on commands running at once.
import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNotifier, checkNotifyCommand, NOTIFY_OUTPUT_LIMIT } from '../../src/adapters/notify-command.js';
import type { NotifierOptions } from '../../src/adapters/notify-command.js';
import { until } from '../helpers/poll.js';

function tempDir(tt: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'fpt-notify-'));
  tt.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function options(dir: string, command: string, lines: string[], extra: Partial<NotifierOptions> = {}): NotifierOptions {
  return {
    command,
    run: 'work gen 1',
    cwd: dir,
    env: { PATH: process.env.PATH },
    log: (line) => lines.push(line),
    ...extra,
  };
}

t.test('a hostile message and document reach the command as data, never as code', async (tt) => {
  const dir = tempDir(tt);
  const lines: string[] = [];
  const hostile = `$(touch pwned1) \`touch pwned2\` "; touch pwned3; " '; touch pwned4; '\ntouch pwned5`;
  // The command uses the variables the way docs/walk-away.md shows: quoted, expanded by the shell at run time.
  const command = `printf '%s|%s|%s|%s|%s' "$FLOWER_PTY_EVENT" "$FLOWER_PTY_MESSAGE" "$FLOWER_PTY_DOCUMENT" "$FLOWER_PTY_RUN" "$FLOWER_PTY_CWD" > out.txt`;
  const notifier = createNotifier(options(dir, command, lines));
  tt.equal(notifier.notify({ name: 'review', document: hostile }, 0), true);
  await notifier.drain(20_000);
  tt.equal(notifier.running(), 0);
  const out = readFileSync(join(dir, 'out.txt'), 'utf8');
  const [event, message, document, run, cwd] = out.split('|');
  tt.equal(event, 'review');
  tt.equal(document, hostile, 'the document path arrives byte for byte');
  tt.match(message, /^flower-pty \(work gen 1\): a handoff document waits for your review: \$\(touch pwned1\)/);
  tt.equal(run, 'work gen 1');
  tt.equal(cwd, dir);
  for (let i = 1; i <= 5; i++) tt.notOk(existsSync(join(dir, `pwned${i}`)), `pwned${i} was never created`);
  tt.match(lines, [/notify-command \(review\): exit 0/]);
});

t.test('an inherited FLOWER_PTY_DOCUMENT never reaches an event that has none', async (tt) => {
  const dir = tempDir(tt);
  const notifier = createNotifier(
    options(dir, `printf '%s' "\${FLOWER_PTY_DOCUMENT-unset}" > doc.txt`, [], {
      env: { PATH: process.env.PATH, FLOWER_PTY_DOCUMENT: '/stale.md' },
    }),
  );
  notifier.notify({ name: 'idle' }, 0);
  await notifier.drain(20_000);
  tt.equal(readFileSync(join(dir, 'doc.txt'), 'utf8'), 'unset');
});

t.test('the command text is run exactly as written (a pipeline, a redirect)', async (tt) => {
  const dir = tempDir(tt);
  const lines: string[] = [];
  const notifier = createNotifier(
    options(dir, `echo "$FLOWER_PTY_EVENT" | tr a-z A-Z > upper.txt; echo to-stderr >&2; exit 3`, lines),
  );
  notifier.notify({ name: 'idle' }, 0);
  await notifier.drain(20_000);
  tt.equal(readFileSync(join(dir, 'upper.txt'), 'utf8'), 'IDLE\n');
  tt.same(lines, ['notify-command (idle): exit 3', 'notify-command (idle) stderr: to-stderr']);
});

t.test('a hanging command is killed with its whole group at the time limit, without blocking', async (tt) => {
  const dir = tempDir(tt);
  const lines: string[] = [];
  // A grandchild that would outlive the shell: killing the group must take it too.
  const notifier = createNotifier(
    options(dir, `sleep 60 & echo $! > child.pid; echo started; sleep 60`, lines, { timeoutMs: 500 }),
  );
  const before = Date.now();
  tt.equal(notifier.notify({ name: 'crash-stop', reason: 'x' }, 0), true);
  tt.ok(Date.now() - before < 200, 'notify() returned at once');
  tt.equal(notifier.running(), 1);
  await until(
    'the grandchild pid',
    () => existsSync(join(dir, 'child.pid')) && readFileSync(join(dir, 'child.pid'), 'utf8').trim() !== '',
    20_000,
    20,
  );
  const grandchild = Number(readFileSync(join(dir, 'child.pid'), 'utf8'));
  await notifier.drain(30_000);
  tt.equal(notifier.running(), 0, 'nothing left running');
  tt.ok(Date.now() - before < 30_000, 'well before the 60 s sleep would have ended');
  tt.same(lines, ['notify-command (crash-stop): killed after 500 ms', 'notify-command (crash-stop) stdout: started']);
  await until(
    'the grandchild to be gone',
    () => {
      try {
        process.kill(grandchild, 0);
        return false;
      } catch {
        return true;
      }
    },
    10_000,
    20,
  );
  tt.pass('the background child of the command was killed too');
});

t.test('repeats are rate-limited through the policy', async (tt) => {
  const dir = tempDir(tt);
  const lines: string[] = [];
  let now = 0;
  const notifier = createNotifier(options(dir, `echo "$FLOWER_PTY_EVENT" >> events.txt`, lines, { windowMs: 60_000 }));
  tt.equal(notifier.notify({ name: 'idle' }, now), true);
  await notifier.drain(20_000);
  now = 30_000;
  tt.equal(notifier.notify({ name: 'idle' }, now), false, 'a repeat inside the window');
  tt.equal(notifier.notify({ name: 'parked', resetsAtMs: null }, now), true, 'another event');
  await notifier.drain(20_000);
  now = 61_000;
  tt.equal(notifier.notify({ name: 'idle' }, now), true, 'after the window');
  await notifier.drain(20_000);
  tt.equal(readFileSync(join(dir, 'events.txt'), 'utf8'), 'idle\nparked\nidle\n');
});

t.test('output reaches the log bounded, and at most maxRunning commands run at once', async (tt) => {
  const dir = tempDir(tt);
  const lines: string[] = [];
  const notifier = createNotifier(
    options(dir, `head -c 100000 /dev/zero | tr '\\0' x; sleep 30`, lines, { timeoutMs: 3_000, maxRunning: 2 }),
  );
  tt.equal(notifier.notify({ name: 'brake', reason: 'a' }, 0), true);
  tt.equal(notifier.notify({ name: 'brake', reason: 'b' }, 0), true);
  tt.equal(notifier.notify({ name: 'brake', reason: 'c' }, 0), false, 'a third is dropped while two run');
  tt.match(lines[0], /notify-command \(brake\): dropped, 2 earlier commands are still running/);
  await notifier.drain(30_000);
  const stdout = lines.filter((l) => l.startsWith('notify-command (brake) stdout: '));
  tt.equal(stdout.length, 2);
  for (const line of stdout) {
    tt.ok(line.length < NOTIFY_OUTPUT_LIMIT + 100, 'the log line is bounded');
    tt.match(line, /… \(98000 more characters dropped\)$/);
  }
});

t.test('a blank command is refused with one line', async (tt) => {
  tt.throws(() => checkNotifyCommand('  '), {
    name: 'FlowerError',
    message: /--notify-command expects a shell command/,
  });
  tt.throws(() => createNotifier(options('/tmp', '', [])), { name: 'FlowerError' });
  tt.equal(checkNotifyCommand('notify-send x'), 'notify-send x');
});
