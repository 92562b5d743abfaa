// End to end against the REAL claude in a git repository: a session Claude Code moves into a worktree
// (`claude -w`, or its EnterWorktree tool mid-session) is metered from the transcript Claude Code says it
// writes, handed off, and its successor works in that worktree; a permission mode the person chose with
// shift+tab is the successor's; a session whose transcript cannot be found is handed off, not left to run
// into the wall.
import t from 'tap';
import type { Test } from 'tap';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { text, bash, usageFor, type MockReply, type MockRequest, type Respond } from '../../src/mock/messages-api.js';
import { startFlower, handoffDoc, HANDOFF_ASK, TAKING_OVER, type FlowerRun } from '../helpers/flower-run.js';
import { looksReady } from '../helpers/real-claude.js';
import type { Sandbox } from '../../src/mock/claude-sandbox.js';

const BYPASS = ['--permission-mode', 'bypassPermissions'];
const TYPED_ASK = /your context window is nearly full\. Read the file/;

function gitRepo(sandbox: Sandbox): void {
  execFileSync('sh', ['-c', 'git init -q && git -c user.email=t@e -c user.name=t commit -q --allow-empty -m init'], {
    cwd: sandbox.projectDir,
  });
}

// Generation 1 follows `first`; the successor runs `pwd` into a file (so the folder its tools run in is
// on disk), then answers plainly.
function lineage(first: (req: MockRequest, i: number) => MockReply): Respond {
  let firstSession: string | undefined;
  let i = 0;
  return (req) => {
    if (!req.isMain) return text('side');
    firstSession ??= req.sessionId;
    if (req.sessionId !== firstSession) {
      return /successor-pwd/.test(req.allText)
        ? text('successor here, continuing', usageFor(12_000))
        : bash('pwd > successor-pwd.txt', usageFor(11_000));
    }
    // The request comes in a hook's reason, or typed into an idle prompt as a line naming its file: a model
    // reads that file and answers with the document, as this one does at once.
    if (HANDOFF_ASK.test(req.lastUserText) || TYPED_ASK.test(req.lastUserText))
      return text(handoffDoc('MOVED'), usageFor(62_000));
    return first(req, i++);
  };
}

async function successorRanIn(t: Test, f: FlowerRun, folder: string): Promise<void> {
  const start2 = await f.waitForEvent('generation-start', 90_000, (e) => e.generation === 2);
  t.equal(start2.folder, folder, 'the successor was started in the worktree');
  const pwdFile = join(folder, 'successor-pwd.txt');
  // `pwd > file` makes the file before it writes the line: wait for the whole line, not the file alone.
  await f.run.waitFor(
    () => existsSync(pwdFile) && readFileSync(pwdFile, 'utf8').endsWith('\n'),
    60_000,
    "the successor's pwd file",
  );
  t.equal(readFileSync(pwdFile, 'utf8').trim(), folder, "the successor's Bash call ran in the worktree");
  t.notOk(existsSync(join(f.sandbox.projectDir, 'successor-pwd.txt')), 'not in the launch folder');
  const first2 = f.api.requests.find((r) => r.sessionId === start2.session_id && r.isMain)!;
  t.match(first2.lastUserText, TAKING_OVER);
}

t.test(
  'claude -w NAME: the session in its new worktree is metered, handed off, and its successor works there',
  async (t) => {
    const respond = lineage((_req, i) => text(`turn ${i}`, usageFor(i === 0 ? 30_000 : 60_000)));
    const f = await startFlower({
      t,
      respond,
      prompt: 'go',
      claudeArgs: [...BYPASS, '-w', 'wt2'],
      flowerArgs: ['--window', '100k', '--review', '0'],
      prepare: gitRepo,
    });
    const worktree = join(f.sandbox.projectDir, '.claude', 'worktrees', 'wt2');
    await f.run.waitForScreen('turn 0', 60_000);
    f.run.pty.write('more');
    await f.run.waitForScreen('more', 10_000);
    f.run.pty.write('\r');
    const writing = await f.waitForEvent('writing', 60_000);
    t.equal(writing.context, 60_000, 'the meter read the worktree transcript');
    const moved = f.events().find((e) => e.event === 'transcript-moved');
    t.match(moved?.to, /-claude-worktrees-wt2\//, 'it follows the transcript path claude names');
    const done = await f.waitForEvent('done', 60_000);
    t.equal(done.degraded, false);
    t.match(readFileSync(f.documentPath, 'utf8'), /MOVED/);
    await successorRanIn(t, f, worktree);
    const cmdline = f.events().filter((e) => e.event === 'generation-start');
    t.equal(cmdline.length, 2);
  },
);

t.test(
  'EnterWorktree mid-session: the meter follows the moved transcript and the successor starts in the worktree',
  async (t) => {
    const respond = lineage((_req, i) => {
      if (i === 0) return { kind: 'tool', name: 'EnterWorktree', input: { name: 'wt1' }, usage: usageFor(20_000) };
      return text(`turn ${i}`, usageFor(i === 1 ? 30_000 : 60_000));
    });
    const f = await startFlower({
      t,
      respond,
      prompt: 'go',
      claudeArgs: BYPASS,
      flowerArgs: ['--window', '100k', '--review', '0'],
      prepare: gitRepo,
    });
    const worktree = join(f.sandbox.projectDir, '.claude', 'worktrees', 'wt1');
    await f.run.waitForScreen('turn 1', 60_000);
    const moved = await f.waitForEvent('transcript-moved', 10_000);
    t.match(moved.to, /-claude-worktrees-wt1\//);
    t.equal(moved.cwd, worktree);
    f.run.pty.write('more');
    await f.run.waitForScreen('more', 10_000);
    f.run.pty.write('\r');
    const writing = await f.waitForEvent('writing', 60_000);
    t.equal(writing.context, 60_000, 'the reading after the move was metered');
    await f.waitForEvent('done', 60_000);
    await successorRanIn(t, f, worktree);
  },
);

t.test('a permission mode chosen with shift+tab is the successor mode', async (t) => {
  const respond = lineage((_req, i) => text(`turn ${i}`, usageFor(i === 0 ? 30_000 : 60_000)));
  // Text-only turns: manual mode asks before a tool; the successor's pwd is answered by its mode below.
  const f = await startFlower({
    t,
    respond,
    prompt: 'go',
    claudeArgs: ['--permission-mode', 'manual'],
    flowerArgs: ['--window', '100k', '--review', '0'],
  });
  await f.run.waitForScreen('turn 0', 60_000);
  await f.run.waitFor(async () => looksReady(await f.run.screenText()), 20_000, 'the idle prompt');
  f.run.pty.write('\x1b[Z'); // shift+tab: manual → accept edits
  await f.run.waitForScreen(/accept edits on/, 10_000);
  f.run.pty.write('more');
  await f.run.waitForScreen('more', 10_000);
  f.run.pty.write('\r');
  await f.waitForEvent('done', 90_000);
  const modeChange = (e: Record<string, unknown>) => (e.changed as string[]).includes('permissionMode');
  const place2 = await f.waitForEvent('session-place', 60_000, (e) => e.generation === 2 && modeChange(e));
  t.equal(place2.permissionMode, 'acceptEdits', "the successor's own hooks say it runs in accept-edits mode");
  const place1 = f.events().filter((e) => e.event === 'session-place' && e.generation === 1 && modeChange(e));
  t.same(
    place1.map((e) => e.permissionMode),
    ['default', 'acceptEdits'],
    'generation 1 was seen switching',
  );
  // The launch was in the default mode: acceptEdits is kept because claude's own transcript shows the session in it.
  t.same(
    f.events().filter((e) => e.event === 'place-refused' && e.generation === 2),
    [],
    'the mode the transcript showed is not refused',
  );
});

t.test(
  'a live session whose transcript cannot be found is said once and handed off at its next boundary',
  async (t) => {
    const respond = lineage((_req, i) => text(`turn ${i}`, usageFor(20_000 + i * 1000)));
    // A file where claude's projects folder should be: this claude can write no transcript, so nothing meters it.
    const f = await startFlower({
      t,
      respond,
      prompt: 'go',
      claudeArgs: BYPASS,
      flowerArgs: ['--window', '100k', '--review', '0'],
      prepare: (sandbox) => writeFileSync(join(sandbox.configDir, 'projects'), 'not a folder\n'),
    });
    await f.run.waitForScreen('turn 0', 60_000);
    const lost = await f.waitForEvent('transcript-lost', 30_000);
    t.equal(lost.generation, 1);
    // claude is idle at its prompt: the request is typed into it (nothing else is needed from a person)
    const writing = await f.waitForEvent('writing', 60_000);
    t.equal(writing.generation, 1, 'the handoff was asked for although the meter read nothing');
    const done = await f.waitForEvent('done', 60_000);
    t.equal(
      done.degraded,
      false,
      `the document came from the Stop hook's payload${done.reason ? ` (not: ${String(done.reason)})` : ''}`,
    );
    t.equal(f.events().filter((e) => e.event === 'transcript-lost' && e.generation === 1).length, 1, 'said once');
    await f.waitForEvent('generation-start', 60_000, (e) => e.generation === 2);
  },
);
