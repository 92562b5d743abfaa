// Through a real run (the run server drawing the split view on a person's pty) with a synthetic child
// (test/fixtures/programs/side-channels.mjs): its clipboard write, notifications and bell reach the
// terminal, its clipboard read does not; its kitty push and bar cursor are asked of the terminal, keys
// come back as CSI u; the child dies without popping, and the terminal is given back as it was. The
// terminal names itself as nothing modern (xterm-256color, no TERM_PROGRAM): what it takes is learned from
// its answers to the split view's queries (DECRQM 2026, answered by xterm itself; the kitty query, here).
import t from 'tap';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { FLOWER_BIN, REPO } from '../helpers/flower-run.js';
import { runClaude, tempRoot } from '../helpers/real-claude.js';
import { runtimeDir, endServersAtTeardown } from '../helpers/run-servers.js';

const CHILD = join(REPO, 'test', 'fixtures', 'programs', 'side-channels.mjs');

t.test("a synthetic child's side channels through the run server's split view", async (t) => {
  const root = realpathSync(tempRoot(t, 'flower-side-'));
  const project = join(root, 'project');
  const home = join(root, 'home');
  for (const dir of [project, home, join(root, 'config')]) mkdirSync(dir, { recursive: true });
  const runtime = runtimeDir(root);
  endServersAtTeardown(t, runtime);
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    CLAUDE_CONFIG_DIR: join(root, 'config'),
    XDG_RUNTIME_DIR: runtime,
    TERM: 'xterm-256color',
    COLORTERM: 'truecolor',
    LANG: 'C.UTF-8',
  };
  const sandbox = {
    env,
    root,
    configDir: join(root, 'config'),
    home,
    projectDir: project,
    claudeArgs: [],
    transcriptPath: () => '',
  };
  // a terminal that knows the kitty protocol answers its query (xterm 6.0, the reader's emulator, does not)
  const answerKitty = (data: string) => {
    if (data.includes('\u001b[?u')) run.pty.write('\u001b[?0u');
  };
  const run = runClaude({
    t,
    sandbox,
    args: [FLOWER_BIN, '--claude', CHILD, '--workbench', join(root, 'wb'), '--review', '0', '--max-generations', '1'],
    bin: process.execPath,
    cols: 120,
    rows: 36,
    onData: answerKitty,
  });
  await run.waitForScreen(/side-channel child ready/, 20_000);
  await run.waitFor(() => run.output().includes('\u001b[>1u'), 10_000, 'the kitty push asked of the terminal');
  t.match(run.output(), '\u001b[6 q', 'the bar cursor');
  t.match(run.output(), '\u001b[?2026h', 'frames synchronized: the terminal answered DECRQM 2026');

  let from = run.output().length;
  run.pty.write('s');
  await run.waitForScreen(/side channels sent/, 10_000);
  await new Promise((r) => setTimeout(r, 200));
  const sent = run.output().slice(from);
  t.match(sent, '\u001b]52;c;aGVsbG8=\u0007', 'the clipboard write');
  t.notMatch(sent, '52;c;?', 'never the clipboard read');
  t.match(sent, '\u001b]9;needs you\u0007');
  t.match(sent, '\u001b]777;notify;Claude;done\u0007');
  t.match(sent, '\u001b]99;i=1;hi\u0007');
  t.match(sent.replace(/\u001b\][^\u0007]*\u0007/g, ''), '\u0007', 'the bell');

  run.pty.write('\u001b[13;2u');
  await run.waitForScreen(/shift\+enter came as CSI u/, 10_000);

  from = run.output().length;
  run.pty.write('x'); // the child dies with its push still on
  await run.waitFor(() => run.isExited(), 30_000, 'flower-pty ending with its child');
  const end = run.output().slice(from);
  t.match(end, '\u001b[<u', 'the kitty push popped');
  t.match(end, '\u001b[0 q', "the terminal's own cursor shape again");
  const all = run.output();
  t.equal(
    (all.match(/\u001b\[<u/g) ?? []).length,
    (all.match(/\u001b\[>\d+u/g) ?? []).length,
    'as many pops as pushes',
  );
});
