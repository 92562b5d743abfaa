// The runtime on fake ports: a session Claude Code moves (its hooks name a new transcript and folder) is
// followed there and its successor starts there, with the permission mode it was left in; a live
// session whose transcript cannot be found is said once and handed off at its next boundary.
import t from 'tap';
import { startWorld, settle, response, prompt, COMPLETE_DOC } from './fake-ports.js';

const WT = '/p/.claude/worktrees/wt1';
const movedPath = (sid: string) => `/config/projects/-p--claude-worktrees-wt1/${sid}.jsonl`;
const block = (out: string) => (out === '' ? null : (JSON.parse(out) as { decision: string; reason: string }));

t.test(
  'a moved transcript is followed, and the successor starts in the folder with the mode and added dirs',
  async (t) => {
    const w = startWorld({ reviewMs: 0 });
    await settle();
    const sid = w.child().sessionId;
    const base = {
      session_id: sid,
      transcript_path: `/config/projects/-p/${sid}.jsonl`,
      cwd: '/p',
      permission_mode: 'default',
    };
    await w.hook('SessionStart', { ...base, source: 'startup' });
    w.append(sid, [prompt('go'), response(40_000, 'one')]);
    await w.hook('UserPromptSubmit', { ...base, permission_mode: 'acceptEdits', prompt: 'go' });
    // EnterWorktree ran: its PostToolUse names the moved transcript and the worktree.
    const inWt = { session_id: sid, transcript_path: movedPath(sid), cwd: WT, permission_mode: 'acceptEdits' };
    await w.hook('PostToolUse', { ...inWt, tool_name: 'EnterWorktree' });
    await settle();
    const moved = w.events.find((e) => e.name === 'transcript-moved');
    t.match(moved?.fields, { from: `/config/projects/-p/${sid}.jsonl`, to: movedPath(sid), cwd: WT });
    // A status line built before the move arrives late: it must not move the meter back.
    await w.hook('statusline', { ...base, workspace: { project_dir: '/p', added_dirs: [] } });
    t.equal(
      w.events.filter((e) => e.name === 'transcript-moved').length,
      1,
      'a stale status line does not move it back',
    );
    await w.hook('statusline', { ...inWt, workspace: { project_dir: WT, added_dirs: ['/data'] } });
    w.append(sid, [response(155_000, 'crossed')], { path: movedPath(sid) });
    const cut = block(await w.hook('Stop', { ...inWt, last_assistant_message: 'crossed' }));
    t.equal(cut?.decision, 'block', 'the reading in the moved transcript crossed the line');
    w.append(sid, [response(160_000, COMPLETE_DOC)], { path: movedPath(sid) });
    await w.hook('Stop', { ...inWt, last_assistant_message: COMPLETE_DOC });
    await settle();
    await w.clock.advance(100);
    t.equal(w.children.length, 2, 'the successor started');
    t.same(
      w.child().place,
      { folder: WT, permissionMode: 'acceptEdits', addedDirs: ['/data'] },
      'where its predecessor was',
    );
    t.match(
      w.documents.get('/p/.flower/notes/doc.md'),
      new RegExp(`transcript[^\\n]*${movedPath(sid).replace(/[/.-]/g, '\\$&')}`),
      'the facts name the transcript that was really written',
    );
  },
);

t.test('a subagent hook says nothing about where the session is', async (t) => {
  const w = startWorld();
  await settle();
  const sid = w.child().sessionId;
  await w.hook('SessionStart', {
    session_id: sid,
    transcript_path: `/config/projects/-p/${sid}.jsonl`,
    cwd: '/p',
    source: 'startup',
  });
  await w.hook('PostToolUse', {
    session_id: sid,
    agent_id: 'a1',
    transcript_path: '/elsewhere.jsonl',
    cwd: '/p/.claude/worktrees/agent-x',
    tool_name: 'Bash',
  });
  t.notOk(w.events.some((e) => e.name === 'transcript-moved'));
  t.notOk(w.events.some((e) => e.name === 'session-place' && e.fields.folder === '/p/.claude/worktrees/agent-x'));
});

t.test('a live session whose transcript is nowhere: said once, then a handoff at the next boundary', async (t) => {
  const w = startWorld();
  await settle();
  const sid = w.child().sessionId;
  await w.hook('SessionStart', { session_id: sid, source: 'startup' });
  await w.hook('UserPromptSubmit', { session_id: sid, prompt: 'go' });
  await w.clock.advance(4_000);
  t.notOk(
    w.events.some((e) => e.name === 'transcript-lost'),
    'not before the bound',
  );
  await w.clock.advance(1_500);
  const lost = w.events.filter((e) => e.name === 'transcript-lost');
  t.equal(lost.length, 1, 'said once');
  t.match(w.views.at(-1)?.note, /transcript cannot be found/);
  const cut = block(await w.hook('PostToolUse', { session_id: sid, tool_name: 'Bash' }));
  t.equal(cut?.decision, 'block', 'the handoff is asked for at the next boundary although nothing was metered');
  t.match(cut?.reason, /handoff/i);
  await w.clock.advance(30_000);
  t.equal(w.events.filter((e) => e.name === 'transcript-lost').length, 1, 'still once');
});

t.test('a transcript that appears in time is no loss', async (t) => {
  const w = startWorld();
  await settle();
  const sid = w.child().sessionId;
  await w.hook('SessionStart', { session_id: sid, source: 'startup' });
  await w.hook('UserPromptSubmit', { session_id: sid, prompt: 'go' });
  await w.clock.advance(1_000);
  w.append(sid, [prompt('go')]);
  await w.clock.advance(30_000);
  t.notOk(w.events.some((e) => e.name === 'transcript-lost'));
});

t.test('--continue starts the successor where the manifest says the last session was', async (t) => {
  const first = startWorld({ reviewMs: 0 });
  await settle();
  const sid = first.child().sessionId;
  await first.hook('SessionStart', { session_id: sid, transcript_path: movedPath(sid), cwd: WT, source: 'startup' });
  await first.hook('UserPromptSubmit', {
    session_id: sid,
    transcript_path: movedPath(sid),
    cwd: WT,
    permission_mode: 'plan',
    prompt: 'go',
  });
  await settle();
  const manifest = first.manifests.at(-1)!;
  t.match(manifest.generations.at(-1)?.place, { folder: WT, permission_mode: 'plan' }, 'the place is in the manifest');
  first.child().exit({ code: 0 });
  await settle();
  const again = startWorld({ prompt: null }, { resume: { manifest, document: COMPLETE_DOC } });
  await settle();
  await settle();
  t.match(again.child().place, { folder: WT, permissionMode: 'plan' });
});
