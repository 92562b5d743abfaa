// buildChildEnv: copies the base env, drops outer-session markers and terminal misfits, applies overrides.
import t from 'tap';
import { OUTER_SESSION_MARKERS, buildChildEnv } from '../../src/claude-code/child-env.js';

t.test('outer-session markers, TMUX, COLUMNS and LINES never reach the child', async (tt) => {
  const base: Record<string, string | undefined> = {
    PATH: '/bin',
    TMUX: '/tmp/tmux-0/default,1,0',
    COLUMNS: '80',
    LINES: '24',
  };
  for (const key of OUTER_SESSION_MARKERS) base[key] = 'outer';
  tt.same(buildChildEnv(base, {}, []), { PATH: '/bin' });
});

t.test('all nine markers of docs/claude-code.md §9 are named', async (tt) => {
  tt.same([...OUTER_SESSION_MARKERS].sort(), [
    'AI_AGENT',
    'CLAUDECODE',
    'CLAUDE_CODE_CHILD_NOTES_DIR',
    'CLAUDE_CODE_CHILD_SESSION',
    'CLAUDE_CODE_SESSION_ATTENDED',
    'CLAUDE_CODE_SESSION_ID',
    'CLAUDE_EFFORT',
    'CLAUDE_PID',
    'TRACEPARENT',
  ]);
});

t.test('undefined values are dropped, `remove` is honoured and `set` wins over every removal', async (tt) => {
  const env = buildChildEnv(
    { HOME: '/root', GONE: undefined, SECRET: 's', CLAUDECODE: '1' },
    { HOME: '/sandbox', CLAUDECODE: 'kept-on-purpose' },
    ['SECRET'],
  );
  tt.same(env, { HOME: '/sandbox', CLAUDECODE: 'kept-on-purpose' });
});

t.test('the base object is not modified', async (tt) => {
  const base = { A: '1', TMUX: 'x' };
  buildChildEnv(base, { B: '2' }, ['A']);
  tt.same(base, { A: '1', TMUX: 'x' });
});
