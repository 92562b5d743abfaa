// Private folders whatever the umask, older lax folders narrowed, and a file read into a successor only
// when it is the person's alone: checked on the opened descriptor (a link, a FIFO, another user's file,
// one others can write, one in a folder others can write are each one line).
import t from 'tap';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FOLDER_ON_THE_WAY, makePrivateDir, openOwnFile, STATE_DIR } from '../../src/adapters/private-dir.js';
import { NotYours } from '../../src/core/errors.js';
import { ownCommandHere } from '../../src/adapters/own-command-here.js';

const isRoot = process.getuid?.() === 0;
const modeOf = (path: string) => (statSync(path).mode & 0o7777).toString(8);
// a folder there already, with a mode a lax umask (or the person) gave it
function folderWithMode(root: string, name: string, mode: number): string {
  const path = join(root, name);
  mkdirSync(path);
  chmodSync(path, mode);
  return path;
}

t.test('a folder made under umask 000 is 0700, every folder on its way too, by either policy', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'private-dir-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  for (const [name, policy] of [
    ['state', STATE_DIR],
    ['on-the-way', FOLDER_ON_THE_WAY],
  ] as const) {
    const old = process.umask(0);
    try {
      makePrivateDir(join(root, name, 'b'), policy);
    } finally {
      process.umask(old);
    }
    t.equal(modeOf(join(root, name)), '700', name);
    t.equal(modeOf(join(root, name, 'b')), '700', name);
  }
});

t.test(
  "an older folder of ours with group or other write is narrowed; a shared sticky folder and another user's are refused",
  async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'private-dir-'));
    t.teardown(() => rmSync(root, { recursive: true, force: true }));
    const lax = folderWithMode(root, 'lax', 0o777);
    makePrivateDir(lax, STATE_DIR);
    t.equal(modeOf(lax), '755', 'group and other lose write, nothing else changes');
    const shared = folderWithMode(root, 'shared', 0o1777);
    t.throws(() => makePrivateDir(shared, STATE_DIR), {
      name: 'NotYours',
      message: /shared is a shared folder other users can write \(mode 1777\).*choose one with --workbench DIR/,
    });
    t.equal(modeOf(shared), '1777', 'never narrowed behind the person’s back');
    if (isRoot) {
      const theirs = join(root, 'theirs');
      mkdirSync(theirs);
      chownSync(theirs, 65534, 65534);
      t.throws(() => makePrivateDir(theirs, STATE_DIR), {
        name: 'NotYours',
        // flower-pty as typed in this test's folder (the checkout: npx flower-pty)
        message: `${theirs} is owned by uid 65534, not by you (uid 0); check it and chown it, then run ${ownCommandHere(process.env, process.cwd())} again`,
      });
    }
  },
);

t.test('a folder on the way to a file that is there already is left as it is', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'private-dir-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  // the person's own project folder, or /tmp, where they named a --log file: never narrowed nor refused
  const project = folderWithMode(root, 'project', 0o775);
  makePrivateDir(project, FOLDER_ON_THE_WAY);
  t.equal(modeOf(project), '775', 'an existing folder keeps its mode');
  const shared = folderWithMode(root, 'shared', 0o1777);
  t.doesNotThrow(() => makePrivateDir(shared, FOLDER_ON_THE_WAY), 'a shared folder is no refusal here');
  t.equal(modeOf(shared), '1777');
});

t.test('a file is read only when it is the person’s alone, by its descriptor', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'private-dir-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const then = 'flower-pty --continue';
  const mine = join(root, 'mine.md');
  writeFileSync(mine, 'doc', { mode: 0o644 });
  const handle = await openOwnFile(mine, then);
  t.equal(await handle?.readFile('utf8'), 'doc');
  await handle?.close();
  t.equal(await openOwnFile(join(root, 'none.md'), then), null, 'no file is no document');

  const link = join(root, 'link.md');
  symlinkSync(mine, link);
  await t.rejects(openOwnFile(link, then), {
    name: 'NotYours',
    message: /link\.md is a symbolic link; .*then flower-pty --continue/,
  });
  const fifo = join(root, 'fifo.md');
  t.equal(spawnSync('mkfifo', [fifo]).status, 0);
  await t.rejects(
    openOwnFile(fifo, then),
    { name: 'NotYours', message: /fifo\.md is not a regular file/ },
    'a FIFO neither blocks nor is read',
  );
  const open = join(root, 'open.md');
  writeFileSync(open, 'doc');
  chmodSync(open, 0o666);
  await t.rejects(openOwnFile(open, then), {
    name: 'NotYours',
    message: /open\.md can be written by other users \(mode 666\); check it and chmod go-w it/,
  });
  const laxDir = join(root, 'lax');
  mkdirSync(laxDir);
  writeFileSync(join(laxDir, 'doc.md'), 'doc', { mode: 0o644 });
  chmodSync(laxDir, 0o777);
  await t.rejects(openOwnFile(join(laxDir, 'doc.md'), then), {
    name: 'NotYours',
    message: /lax can be written by other users \(mode 777\), so .*doc\.md may not be yours; check it and chmod go-w/,
  });
  if (isRoot) {
    const theirs = join(root, 'theirs.md');
    writeFileSync(theirs, 'doc', { mode: 0o644 });
    chownSync(theirs, 65534, 65534);
    const refused = await openOwnFile(theirs, then).catch((error: unknown) => error);
    t.ok(refused instanceof NotYours);
    t.match(
      (refused as Error).message,
      /theirs\.md is owned by uid 65534, not you \(uid 0\); check it and chown it, then flower-pty --continue/,
    );
  }
});
