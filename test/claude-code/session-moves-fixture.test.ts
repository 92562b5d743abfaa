// The recorded 2.1.332 payloads of a session that moved into a worktree, through the dialect: every
// main-thread payload says where the session is, and after the move it names the worktree's transcript.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { toHookEvent } from '../../src/claude-code/run-hook.js';
import { claudeFixtures } from '../helpers/fixtures.js';

const rows = readFileSync(claudeFixtures('2.1.332', 'scenarios', 'session-moves', 'hooks.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { event: string; payload: unknown });

t.test('each payload says where the session is', async (t) => {
  const [prompt, post, stop, status] = rows.map((r) => toHookEvent(r.event, r.payload));
  t.match(prompt?.where, {
    permissionMode: 'acceptEdits',
    cwd: '/tmp/flower-claude-wayWfW/project',
    transcriptPath: /-project\/188e98c6/,
  });
  t.match(post?.where, {
    cwd: /\.claude\/worktrees\/wt1$/,
    transcriptPath: /-project--claude-worktrees-wt1\/188e98c6/,
  });
  t.equal(stop?.where?.transcriptPath, post?.where?.transcriptPath);
  t.match(status?.where, { projectDir: /\.claude\/worktrees\/wt1$/, addedDirs: [], permissionMode: null });
});

t.test("a subagent's payload says nothing of the session's place", async (t) => {
  const payload = { ...(rows[1]!.payload as object), agent_id: 'a1' };
  t.equal(toHookEvent('PostToolUse', payload).where, undefined);
});
