// Where the session is, as hooks and the status line say it: table-driven over the rules of placeAfter.
import t from 'tap';
import {
  boundPlace,
  NO_PLACE,
  placeAfter,
  placeChanges,
  type SessionWhere,
} from '../../../src/core/lineage/session-place.js';
import { successorModes } from '../../../src/claude-code/permission-modes.js';

const where = (over: Partial<SessionWhere>): SessionWhere => ({
  transcriptPath: null,
  cwd: null,
  projectDir: null,
  permissionMode: null,
  addedDirs: null,
  ...over,
});

const cases = [
  {
    name: 'a first hook names the folder',
    place: NO_PLACE,
    w: where({ cwd: '/r' }),
    o: { fromStatusLine: false, moved: false },
    folder: '/r',
  },
  {
    name: "a later hook's cd does not move it",
    place: { ...NO_PLACE, folder: '/r' },
    w: where({ cwd: '/r/src' }),
    o: { fromStatusLine: false, moved: false },
    folder: '/r',
  },
  {
    name: 'a hook of a moved session does',
    place: { ...NO_PLACE, folder: '/r' },
    w: where({ cwd: '/r/.claude/worktrees/a' }),
    o: { fromStatusLine: false, moved: true },
    folder: '/r/.claude/worktrees/a',
  },
  {
    name: "the status line's project folder wins",
    place: { ...NO_PLACE, folder: '/r/src' },
    w: where({ cwd: '/r/src', projectDir: '/r' }),
    o: { fromStatusLine: true, moved: false },
    folder: '/r',
  },
];
for (const c of cases) {
  t.test(c.name, async (t) => {
    t.equal(placeAfter(c.place, c.w, c.o).folder, c.folder);
  });
}

t.test('mode and added dirs follow; an unchanged place is the same value', async (t) => {
  const p1 = placeAfter(NO_PLACE, where({ cwd: '/r', permissionMode: 'default' }), {
    fromStatusLine: false,
    moved: false,
  });
  const p2 = placeAfter(p1, where({ cwd: '/r', permissionMode: 'plan', addedDirs: ['/d'] }), {
    fromStatusLine: false,
    moved: false,
  });
  t.equal(p2.permissionMode, 'plan');
  t.same(p2.addedDirs, ['/d']);
  t.equal(
    placeAfter(p2, where({ cwd: '/r', permissionMode: 'plan', addedDirs: ['/d'] }), {
      fromStatusLine: false,
      moved: false,
    }),
    p2,
    'no change, no new value',
  );
  t.same(placeChanges(p1, p2), ['permissionMode', 'addedDirs']);
});

t.test('a successor never gets more than the person gave the run', async (t) => {
  const grant = {
    modes: ['plan', 'dontAsk', 'default', 'acceptEdits'],
    folders: ['/r', '/r/.claude/worktrees/a'],
    dirs: ['/shared'],
  };
  const real = (p: string) => p.replace(/^\/link/, '/r');
  const kept = boundPlace(
    { folder: '/r/.claude/worktrees/a', permissionMode: 'acceptEdits', addedDirs: ['/shared', '/r', '/link'] },
    grant,
    real,
  );
  t.same(
    kept,
    {
      place: { folder: '/r/.claude/worktrees/a', permissionMode: 'acceptEdits', addedDirs: ['/shared', '/r', '/link'] },
      refused: [],
    },
    "a worktree, a mode the person can pick, their own dirs and the run's folder (by its real path)",
  );
  const raised = boundPlace(
    { folder: '/tmp/elsewhere', permissionMode: 'bypassPermissions', addedDirs: ['/etc', '/shared', '/root'] },
    grant,
    real,
  );
  t.same(
    raised.place,
    { folder: null, permissionMode: null, addedDirs: ['/shared'] },
    'another folder, the bypass and dirs nobody added: dropped',
  );
  t.equal(raised.refused.length, 3, 'each said');
  t.match(raised.refused[2], /did not add.*\/etc, \/root/);
  const allowed = boundPlace(
    { ...NO_PLACE, permissionMode: 'bypassPermissions' },
    { ...grant, modes: [...grant.modes, 'bypassPermissions'] },
    real,
  );
  t.equal(allowed.place.permissionMode, 'bypassPermissions', "the bypass when the person's launch allowed it");
});

// A hook or status line can be forged by any command claude runs: the mode it names is kept only if the
// person's own launch gave it (or more), or claude's own transcript showed the session in it.
const modeCases: {
  name: string;
  launch: string;
  transcript: string[];
  bypassAllowed?: boolean;
  claimed: string;
  kept: boolean;
}[] = [
  {
    name: 'a forged acceptEdits in a default launch',
    launch: 'default',
    transcript: ['default'],
    claimed: 'acceptEdits',
    kept: false,
  },
  { name: 'a forged auto in a default launch', launch: 'default', transcript: [], claimed: 'auto', kept: false },
  {
    name: 'acceptEdits the transcript shows the session in',
    launch: 'default',
    transcript: ['default', 'acceptEdits'],
    claimed: 'acceptEdits',
    kept: true,
  },
  { name: 'plan, fewer powers than the launch', launch: 'default', transcript: [], claimed: 'plan', kept: true },
  {
    name: 'a launch in acceptEdits keeps acceptEdits',
    launch: 'acceptEdits',
    transcript: [],
    claimed: 'acceptEdits',
    kept: true,
  },
  {
    name: 'a launch in acceptEdits keeps default',
    launch: 'acceptEdits',
    transcript: [],
    claimed: 'default',
    kept: true,
  },
  { name: 'a launch in plan does not get default', launch: 'plan', transcript: [], claimed: 'default', kept: false },
  {
    name: 'plan and dontAsk do not contain each other',
    launch: 'plan',
    transcript: [],
    claimed: 'dontAsk',
    kept: false,
  },
  { name: 'a mode the release does not know', launch: 'auto', transcript: [], claimed: 'everything', kept: false },
  {
    name: 'the bypass in the transcript, the launch not allowing it',
    launch: 'default',
    transcript: ['bypassPermissions'],
    claimed: 'bypassPermissions',
    kept: false,
  },
  {
    name: 'the bypass the person shift+tabbed into, allowed',
    launch: 'default',
    transcript: ['bypassPermissions'],
    bypassAllowed: true,
    claimed: 'bypassPermissions',
    kept: true,
  },
  {
    name: 'a forged bypass, allowed but never used',
    launch: 'default',
    transcript: [],
    bypassAllowed: true,
    claimed: 'bypassPermissions',
    kept: false,
  },
  {
    name: 'a launch in the bypass keeps auto',
    launch: 'bypassPermissions',
    transcript: [],
    bypassAllowed: true,
    claimed: 'auto',
    kept: true,
  },
];
for (const c of modeCases) {
  t.test(`mode: ${c.name}`, async (t) => {
    const grant = {
      modes: successorModes(c.launch, c.transcript, c.bypassAllowed ?? false),
      folders: ['/r'],
      dirs: [],
    };
    const bound = boundPlace({ ...NO_PLACE, permissionMode: c.claimed }, grant, (p) => p);
    t.equal(
      bound.place.permissionMode,
      c.kept ? c.claimed : null,
      c.kept ? 'kept' : 'the successor starts in the launch mode',
    );
    t.equal(bound.refused.length, c.kept ? 0 : 1, 'a refusal is said');
    if (!c.kept) t.match(bound.refused[0], new RegExp(`permission mode ${c.claimed} is neither`));
  });
}
