// End to end against the REAL claude: the workbench is a 64 KB tmpfs, filled just before the handoff. The
// document the model wrote is never lost: the failure is said at once (events, status bar) with the path,
// the reason and what to do, the status bar never says "written", the successor starts from the copy in
// memory, and once space is freed the document is written before the successor starts.
import t from 'tap';
import type { Test } from 'tap';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  rmdirSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text, usageFor, type MockRequest, type MockReply } from '../../src/mock/messages-api.js';
import { startFlower, handoffDoc, HANDOFF_ASK, TAKING_OVER } from '../helpers/flower-run.js';
import { quitWithCtrlC } from '../helpers/real-claude.js';

// Whether this machine lets the test mount a tmpfs (root, and a kernel and container that allow it).
function canMount(): string | null {
  const probe = mkdtempSync(join(tmpdir(), 'flower-mount-probe-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { encoding: 'utf8' });
  if (r.status === 0) spawnSync('umount', [probe]);
  rmdirSync(probe);
  return r.status === 0
    ? null
    : `cannot mount a tmpfs here (${(r.stderr || r.error?.message || 'mount failed').trim()}): needs root and a kernel that allows it`;
}

// Writes until the disk says no: whatever is left is less than one page.
function fill(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(1024, 120);
  try {
    for (;;) writeSync(fd, chunk);
  } catch {
    // ENOSPC: full
  } finally {
    closeSync(fd);
  }
}

// Generation 1 works, then crosses; the disk fills up just before the model's document comes back.
function fillingAtHandoff(marker: string, filler: () => string): (req: MockRequest) => MockReply {
  let firstSession: string | undefined;
  return (req) => {
    if (!req.isMain) return text('side');
    firstSession ??= req.sessionId;
    if (req.sessionId !== firstSession) return text('successor here', usageFor(12_000));
    if (!HANDOFF_ASK.test(req.lastUserText)) return text('worked', usageFor(55_000));
    fill(filler());
    return text(handoffDoc(marker), usageFor(56_000));
  };
}

// The workbench as a 64 KB tmpfs of its own (0700: a tmpfs is 1777 by default, a shared folder flower-pty
// refuses to keep its state in), unmounted at teardown; returns the filler file's path.
function tmpfsWorkbench(t: Test, root: string): string {
  const workbench = join(root, 'wb');
  mkdirSync(workbench, { recursive: true });
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', workbench], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mount failed: ${r.stderr}`);
  t.teardown(() => void spawnSync('umount', ['-l', workbench]));
  return join(workbench, 'filler');
}

const cannot = canMount();
t.test('a full disk at the handoff never loses the document', { skip: cannot ?? false }, async (t) => {
  const MARKER = `ONLY-IN-MEMORY-${Math.random().toString(36).slice(2, 8)}`;
  let filler = '';
  const respond = fillingAtHandoff(MARKER, () => filler);
  const f = await startFlower({
    t,
    respond,
    prompt: 'go',
    flowerArgs: ['--window', '100k', '--review', '4'],
    prepare: (sandbox) => void (filler = tmpfsWorkbench(t, sandbox.root)),
  });
  const failed = await f.waitForEvent('write-failed', 90_000, (e) => e.what === 'document');
  t.match(failed, {
    path: f.documentPath,
    reason: /ENOSPC/,
    advice: /free some space/,
    cost: /copy flower-pty keeps in memory/,
  });
  t.notOk(existsSync(f.documentPath), 'the disk refused it');
  // --plain: the run's state is in the terminal title (and claude's status line).
  await f.run.waitFor(
    () => /disk trouble: the handoff document not written \(ENOSPC/.test(f.run.output()),
    10_000,
    'the title to say so',
  );
  t.notMatch(f.run.output(), /handoff written/, 'never says written');
  // A person frees space during the review: the document is written before the successor starts.
  rmSync(filler, { force: true });
  const start2 = await f.waitForEvent('generation-start', 60_000, (e) => e.generation === 2);
  const first2 = await f.api.waitForRequest((r) => r.sessionId === start2.session_id, 60_000);
  t.match(first2.lastUserText, TAKING_OVER);
  t.match(first2.lastUserText, new RegExp(MARKER), "the successor starts from the model's own document");
  t.match(readFileSync(f.documentPath, 'utf8'), new RegExp(MARKER), 'on disk once there was room');
  t.match(
    f.events().find((e) => e.event === 'write-recovered' && e.what === 'document'),
    { path: f.documentPath },
  );
  t.match(first2.lastUserText, /The document is saved at /, 'named only now that it is there');
  t.notOk(
    f.events().some((e) => e.event === 'spawn-failed' || e.event === 'stopped'),
    'the run went on',
  );
});

t.test(
  'a disk that stays full: the successor starts from memory, the run goes on, the exit code says the lineage is behind',
  { skip: cannot ?? false },
  async (t) => {
    const MARKER = `STILL-FULL-${Math.random().toString(36).slice(2, 8)}`;
    let filler = '';
    const respond = fillingAtHandoff(MARKER, () => filler);
    const f = await startFlower({
      t,
      respond,
      prompt: 'go',
      flowerArgs: ['--window', '100k', '--review', '0'],
      prepare: (sandbox) => void (filler = tmpfsWorkbench(t, sandbox.root)),
    });
    const start2 = await f.waitForEvent('generation-start', 90_000, (e) => e.generation === 2);
    const first2 = await f.api.waitForRequest((r) => r.sessionId === start2.session_id, 60_000);
    t.match(
      first2.lastUserText,
      new RegExp(MARKER),
      "the successor starts from the model's own document, held in memory",
    );
    t.notMatch(first2.lastUserText, /The document is saved at/, 'never told it is saved where there is none');
    t.ok(f.events().filter((e) => e.event === 'write-failed' && e.what === 'document').length >= 1);
    t.match(
      f.events().find((e) => e.event === 'write-failed' && e.what === 'manifest'),
      { reason: /ENOSPC/ },
      'the lineage not being saved is said',
    );
    t.match(
      f.events().find((e) => e.event === 'write-failed' && e.what === 'record'),
      { path: /successor-prompt-2\.md$/ },
      "the report's record failed and the run went on",
    );
    await f.run.waitForScreen(/successor here/, 30_000);
    await quitWithCtrlC(f.run);
    const exit = await f.run.exited;
    t.equal(exit.exitCode, 8, 'a file could not be written: not 0, not 5 (claude not found)');
    t.match(f.run.output(), /could not write the lineage \(manifest\.json\) [^\n]*ENOSPC/);
  },
);
