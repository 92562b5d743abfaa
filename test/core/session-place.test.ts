// Where the session is, as hooks and the status line say it: table-driven over the rules of placeAfter.
import t from 'tap';
import { boundPlace, NO_PLACE, placeAfter, placeChanges } from '../../src/core/lineage/session-place.js';
import type { SessionWhere } from '../../src/core/run/hook-event.js';

const where = (over: Partial<SessionWhere>): SessionWhere => ({ transcriptPath: null, cwd: null, projectDir: null, permissionMode: null, addedDirs: null, ...over });

const cases = [
  { name: 'a first hook names the folder', place: NO_PLACE, w: where({ cwd: '/r' }), o: { fromStatusLine: false, moved: false }, folder: '/r' },
  { name: "a later hook's cd does not move it", place: { ...NO_PLACE, folder: '/r' }, w: where({ cwd: '/r/src' }), o: { fromStatusLine: false, moved: false }, folder: '/r' },
  { name: 'a hook of a moved session does', place: { ...NO_PLACE, folder: '/r' }, w: where({ cwd: '/r/.claude/worktrees/a' }), o: { fromStatusLine: false, moved: true }, folder: '/r/.claude/worktrees/a' },
  { name: "the status line's project folder wins", place: { ...NO_PLACE, folder: '/r/src' }, w: where({ cwd: '/r/src', projectDir: '/r' }), o: { fromStatusLine: true, moved: false }, folder: '/r' },
];
for (const c of cases) {
  t.test(c.name, async (t) => {
    t.equal(placeAfter(c.place, c.w, c.o).folder, c.folder);
  });
}

t.test('mode and added dirs follow; an unchanged place is the same value', async (t) => {
  const p1 = placeAfter(NO_PLACE, where({ cwd: '/r', permissionMode: 'default' }), { fromStatusLine: false, moved: false });
  const p2 = placeAfter(p1, where({ cwd: '/r', permissionMode: 'plan', addedDirs: ['/d'] }), { fromStatusLine: false, moved: false });
  t.equal(p2.permissionMode, 'plan');
  t.same(p2.addedDirs, ['/d']);
  t.equal(placeAfter(p2, where({ cwd: '/r', permissionMode: 'plan', addedDirs: ['/d'] }), { fromStatusLine: false, moved: false }), p2, 'no change, no new value');
  t.same(placeChanges(p1, p2), ['permissionMode', 'addedDirs']);
});

t.test('a successor never gets more than the person gave the run', async (t) => {
  const grant = { refusedModes: ['bypassPermissions'], folders: ['/r', '/r/.claude/worktrees/a'], dirs: ['/shared'] };
  const real = (p: string) => p.replace(/^\/link/, '/r');
  const kept = boundPlace({ folder: '/r/.claude/worktrees/a', permissionMode: 'acceptEdits', addedDirs: ['/shared', '/r', '/link'] }, grant, real);
  t.same(kept, { place: { folder: '/r/.claude/worktrees/a', permissionMode: 'acceptEdits', addedDirs: ['/shared', '/r', '/link'] }, refused: [] }, 'a worktree, a mode the person can pick, their own dirs and the run\'s folder (by its real path)');
  const raised = boundPlace({ folder: '/tmp/elsewhere', permissionMode: 'bypassPermissions', addedDirs: ['/etc', '/shared', '/root'] }, grant, real);
  t.same(raised.place, { folder: null, permissionMode: null, addedDirs: ['/shared'] }, 'another folder, the bypass and dirs nobody added: dropped');
  t.equal(raised.refused.length, 3, 'each said');
  t.match(raised.refused[2], /did not add.*\/etc, \/root/);
  const allowed = boundPlace({ ...NO_PLACE, permissionMode: 'bypassPermissions' }, { ...grant, refusedModes: [] }, real);
  t.equal(allowed.place.permissionMode, 'bypassPermissions', 'the bypass when the person\'s launch allowed it');
});
