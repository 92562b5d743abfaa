// The transcript tail's poll backs off while the file is quiet (the one timer a quiet run keeps) and
// comes back at once with growth or a catch-up; a bounded wait either way. It reads only a regular file,
// in bounded slices.
import t from 'tap';
import { appendFileSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTranscriptTail } from '../../src/adapters/transcript-tail.js';
import { sleep } from '../helpers/poll.js';

t.test(
  'a quiet file is polled less often; growth is still seen within the slow poll, a catch-up at once',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'flower-tail-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 't.jsonl');
    writeFileSync(path, 'a\n');
    let seen = '';
    let seenAt = 0;
    const tail = openTranscriptTail({
      path,
      pollMs: 10,
      idlePollMs: 600,
      onChunk: (b) => {
        seen += Buffer.from(b).toString();
        seenAt = Date.now();
      },
      onReset: () => {},
    });
    t.teardown(() => tail.close());
    await sleep(100);
    t.equal(seen, 'a\n');
    await sleep(2_000); // quiet: the poll has backed off to 600 ms
    const wroteAt = Date.now();
    appendFileSync(path, 'b\n');
    while (!seen.includes('b') && Date.now() - wroteAt < 3_000) await sleep(5);
    t.ok(seen.includes('b'), 'growth is seen');
    t.ok(seenAt - wroteAt >= 30, `not by a 10 ms poll: the quiet poll had backed off (${seenAt - wroteAt} ms)`);
    t.ok(seenAt - wroteAt <= 1_500, 'within the slow poll and some slack');
    await sleep(2_000);
    appendFileSync(path, 'c\n');
    tail.catchUp();
    t.ok(seen.includes('c'), 'a catch-up reads at once, whatever the poll');
  },
);

t.test(
  'a transcript moved whole is followed at its new path from where the old one was read; presence is said',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'flower-tail-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const oldPath = join(dir, 'old.jsonl');
    const newPath = join(dir, 'new.jsonl');
    let seen = '';
    const presence: boolean[] = [];
    const resets: string[] = [];
    const tail = openTranscriptTail({
      path: oldPath,
      pollMs: 10,
      onChunk: (b) => (seen += Buffer.from(b).toString()),
      onReset: (r) => resets.push(r),
      onPresence: (found) => presence.push(found),
    });
    t.teardown(() => tail.close());
    tail.catchUp();
    t.same(presence, [false], 'not there yet');
    writeFileSync(oldPath, 'a\nb\n');
    tail.catchUp();
    t.equal(seen, 'a\nb\n');
    // claude moves the session: the same rows, more after them, at another path
    renameSync(oldPath, newPath);
    appendFileSync(newPath, 'c\n');
    tail.catchUp();
    t.same(presence, [false, true, false], 'gone from the old path');
    tail.repoint(newPath);
    t.equal(seen, 'a\nb\nc\n', 'only what was not read yet');
    t.same(resets, [], 'not a reset: the readings carry over');
    t.same(presence, [false, true, false, true]);
    t.equal(tail.path, newPath);
  },
);

t.test('a transcript path that is a symbolic link, a FIFO or a device is never read: one line, once', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flower-tail-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const real = join(dir, 'elsewhere.jsonl');
  writeFileSync(real, '{"secret":1}\n');
  const link = join(dir, 'link.jsonl');
  symlinkSync(real, link);
  const fifo = join(dir, 'fifo.jsonl');
  t.equal(spawnSync('mkfifo', [fifo]).status, 0);
  for (const [path, kind] of [
    [link, 'a symbolic link'],
    [fifo, 'a FIFO'],
    ['/dev/zero', 'not a regular file'],
  ] as const) {
    let seen = 0;
    const refused: string[] = [];
    const presence: boolean[] = [];
    const tail = openTranscriptTail({
      path,
      pollMs: 10,
      onChunk: (b) => (seen += b.length),
      onReset: () => {},
      onPresence: (found) => presence.push(found),
      onRefused: (line) => refused.push(line),
    });
    tail.catchUp();
    await sleep(100);
    tail.catchUp();
    tail.close();
    t.equal(seen, 0, `${kind}: nothing read`);
    t.same(presence, [false], `${kind}: the transcript counts as not there`);
    t.same(
      refused,
      [
        `the transcript ${path} is ${kind}: flower-pty reads a transcript only as a regular file, so the meter is not read from it`,
      ],
      `${kind}: said once`,
    );
  }
});
