// --events and --log at a FIFO with no reader: opening one for writing blocks until a
// reader comes, which froze the run server before claude started, deaf to ls, kill and SIGTERM. Now the
// run is refused before anything starts (one line, exit 2), and an append never blocks even when a FIFO
// is put in the file's place during a run. Real FIFOs (mkfifo).
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { appendWithoutBlocking, checkAppendTarget } from '../../src/adapters/append-file.js';
import { openEventsLog } from '../../src/adapters/events-log.js';

const root = mkdtempSync(join(tmpdir(), 'flower-fifo-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));
const claude = join(root, 'claude');
writeFileSync(claude, `#!/bin/sh\necho ran >> ${join(root, 'claude-ran')}\nexit 0\n`);
chmodSync(claude, 0o755);

function fifo(name: string): string {
  const path = join(root, name);
  const r = spawnSync('mkfifo', [path]);
  if (r.status !== 0) throw new Error(`mkfifo failed: ${r.stderr}`);
  return path;
}

for (const flag of ['--events', '--log']) {
  t.test(`${flag} at a FIFO with no reader: one line, exit 2, nothing started`, async (t) => {
    const path = fifo(`pipe${flag}`);
    const cwd = mkdtempSync(join(root, 'cwd-'));
    const r = spawnSync(
      process.execPath,
      [FLOWER_BIN, '--claude', claude, '--plain', '--no-workbench', flag, path, 'go'],
      {
        cwd,
        encoding: 'utf8',
        input: '',
        timeout: 20_000,
        env: { PATH: '/usr/bin:/bin', HOME: root, XDG_RUNTIME_DIR: root },
      },
    );
    t.equal(r.status, 2, `exit 2 (signal ${r.signal}, stderr ${r.stderr})`);
    t.equal(
      r.stderr,
      `flower-pty: ${flag} ${path} is a FIFO (named pipe) with no reader: name a regular file, e.g. ${flag} run.jsonl\n`,
    );
    t.notOk(existsSync(join(root, 'claude-ran')), 'claude never ran');
  });
}

t.test('a folder or a device is refused too', async (t) => {
  const dir = join(root, 'a-folder');
  mkdirSync(dir);
  t.throws(() => checkAppendTarget(dir, '--events', root), {
    message: /--events .*a-folder is a folder: name a regular file/,
  });
  t.throws(() => checkAppendTarget('/dev/zero', '--log', root), {
    message: '--log /dev/zero is a device, not a regular file: name a regular file, e.g. --log run.jsonl',
  });
  const file = join(root, 'fine.jsonl');
  checkAppendTarget(file, '--events', root);
  t.ok(existsSync(file), 'a regular file is fine (and created where the person asked)');
});

t.test('an append to a FIFO put in the file’s place returns at once, never blocks', async (t) => {
  const path = fifo('swapped.jsonl');
  t.equal(appendWithoutBlocking(path, 'x\n'), false, 'not written, and not blocked');
  openEventsLog(path).emit('error', { message: 'a line for nobody' });
  t.pass('the events log went on');
});

t.test('report --events at a FIFO says it is not a regular file instead of waiting for a writer', async (t) => {
  const path = fifo('report-events.jsonl');
  const wb = join(root, 'wb');
  mkdirSync(join(wb, 'notes'), { recursive: true });
  writeFileSync(join(wb, 'notes', '交接-work.md'), '## Doing\nx\n## Next\ny\n');
  const r = spawnSync(process.execPath, [FLOWER_BIN, 'report', '--workbench', wb, '--events', path, '--json'], {
    encoding: 'utf8',
    timeout: 20_000,
    env: { PATH: '/usr/bin:/bin', HOME: root },
  });
  t.equal(r.status, 0, `${r.signal} ${r.stderr}`);
  t.match(r.stdout, /is not a regular file: not read/);
});
