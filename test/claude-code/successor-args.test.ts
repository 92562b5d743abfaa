// The person's claude flags as the successor gets them: the session's mode replaces the launch mode,
// added directories are added again, and a worktree flag is dropped once the successor starts in it.
import t from 'tap';
import { successorArgs, addedDirsOf, flagsAllowBypass } from '../../src/claude-code/successor-args.js';
import { NO_PLACE } from '../../src/core/lineage/session-place.js';
import { foregroundOnlyArg } from '../../src/claude-code/child-launch.js';

const WT = '/r/.claude/worktrees/wt2';

const cases: Array<{ name: string; args: string[]; place: typeof NO_PLACE; want: string[] }> = [
  {
    name: 'nothing known: the flags as they were',
    args: ['--model', 'opus', '-w', 'wt2'],
    place: NO_PLACE,
    want: ['--model', 'opus', '-w', 'wt2'],
  },
  {
    name: '-w NAME dropped in its worktree',
    args: ['-w', 'wt2', '--model', 'opus'],
    place: { ...NO_PLACE, folder: WT },
    want: ['--model', 'opus'],
  },
  {
    name: '--worktree=NAME dropped',
    args: ['--worktree=wt2', '--verbose'],
    place: { ...NO_PLACE, folder: WT },
    want: ['--verbose'],
  },
  {
    name: '-w with no name, then a flag',
    args: ['-w', '--verbose'],
    place: { ...NO_PLACE, folder: WT },
    want: ['--verbose'],
  },
  { name: '--tmux goes with the worktree', args: ['-w', 'x', '--tmux'], place: { ...NO_PLACE, folder: WT }, want: [] },
  {
    name: 'the session mode replaces the launch mode',
    args: ['--permission-mode', 'manual', '--model', 'm'],
    place: { ...NO_PLACE, permissionMode: 'acceptEdits' },
    want: ['--model', 'm', '--permission-mode', 'acceptEdits'],
  },
  {
    name: 'plan mode, from --permission-mode=',
    args: ['--permission-mode=auto'],
    place: { ...NO_PLACE, permissionMode: 'plan' },
    want: ['--permission-mode', 'plan'],
  },
  {
    name: 'skip-permissions replaced by the mode it left',
    args: ['--dangerously-skip-permissions'],
    place: { ...NO_PLACE, permissionMode: 'default' },
    want: ['--permission-mode', 'default'],
  },
  {
    name: 'added dirs added once',
    args: ['--add-dir', '/a', '/b'],
    place: { ...NO_PLACE, addedDirs: ['/a', '/b', '/c'] },
    want: ['--add-dir', '/a', '/b', '--add-dir', '/c'],
  },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    t.same(successorArgs(c.args, c.place), c.want);
  });
}

t.test('--add-dir values', async (t) => {
  t.same(addedDirsOf(['--add-dir', '/a', '/b', '--model', 'x', '--add-dir=/c']), ['/a', '/b', '/c']);
});

t.test('--bg, --background and --tmux are refused at start', async (t) => {
  t.equal(foregroundOnlyArg(['--bg']), '--bg');
  t.equal(foregroundOnlyArg(['--model', 'x', '--background']), '--background');
  t.equal(foregroundOnlyArg(['--tmux=classic']), '--tmux');
  t.equal(foregroundOnlyArg(['-w', 'x', '--model', 'bg']), null);
});

t.test("the person's own flags that allow the bypass mode, and only those", async (t) => {
  for (const args of [
    ['--dangerously-skip-permissions'],
    ['--allow-dangerously-skip-permissions'],
    ['--permission-mode', 'bypassPermissions'],
    ['--permission-mode=bypassPermissions'],
  ])
    t.ok(flagsAllowBypass(args), args.join(' '));
  for (const args of [
    [],
    ['--permission-mode', 'default'],
    ['--permission-mode', 'acceptEdits'],
    ['bypassPermissions'],
  ])
    t.notOk(flagsAllowBypass(args), args.join(' ') || 'no flag');
});
