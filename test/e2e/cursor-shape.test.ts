// The cursor shape (DECSCUSR, CSI n SP q) on the REAL claude's bytes through flower-pty's split view.
// Claude Code itself sends none (docs/terminal-fidelity.md); what a person's session really puts on
// claude's terminal is its external editor: ctrl+g (chat:externalEditor) runs $VISUAL in claude's own
// terminal, and an editor such as vim sets a bar in insert mode and a block on leaving it. Those bytes come
// out of claude's pty, through the run server, to the person's terminal: the bar while claude's pane has
// the keys, the terminal's own shape (CSI 0 SP q) while the document pane has them, the bar again when
// claude's pane takes them back (and in the repaint of a terminal that attaches meanwhile), the block the
// editor left once it exits (and claude has the edited text),
// and the terminal's own shape when the person detaches.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockApi, text } from '../../src/mock/messages-api.js';
import { createClaudeSandbox } from '../../src/mock/claude-sandbox.js';
import { runClaude, testClaude } from '../helpers/real-claude.js';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { runtimeDir, endServersAtTeardown } from '../helpers/run-servers.js';
import { sleep } from '../helpers/poll.js';
import { tempRoot } from '../helpers/temp-root.js';

const EDITOR = join(import.meta.dirname, '..', 'fixtures', 'programs', 'fake-vim.sh');
const BAR = '\u001b[5 q';
const BLOCK = '\u001b[2 q';
const OWN = '\u001b[0 q';
const PREFIX = '\u001d';

// every DECSCUSR in `raw`, in order
const shapes = (raw: string): string[] => [...raw.matchAll(/\u001b\[\d* q/g)].map((m) => m[0]);

t.test(
  "the editor claude runs on ctrl+g sets the cursor shape on the person's terminal through the split view",
  async (t) => {
    const api = await startMockApi({ respond: () => text('ok') });
    t.teardown(() => api.close());
    const root = tempRoot(t, 'flower-cursor-shape-');
    const runtime = runtimeDir(root);
    endServersAtTeardown(t, runtime);
    const go = join(root, 'editor-may-finish');
    const sandbox = await createClaudeSandbox({
      root,
      baseUrl: api.url,
      env: { XDG_RUNTIME_DIR: runtime, VISUAL: EDITOR, EDITOR, FAKE_VIM_GO: go },
    });
    const args = [FLOWER_BIN, '--claude', testClaude(), '--workbench', join(root, 'wb'), '--', ...sandbox.claudeArgs];
    const run = runClaude({
      t,
      sandbox: { ...sandbox, claudeArgs: [] },
      args,
      bin: process.execPath,
      cols: 120,
      rows: 40,
    });
    const after = (mark: number) => run.output().slice(mark);
    const arrives = (mark: number, seq: string, what: string) =>
      run.waitFor(() => after(mark).includes(seq), 30_000, what);
    await run.waitFor(
      async () => {
        const screen = await run.screenText();
        return screen.includes('❯') && !screen.includes('esc to interrupt');
      },
      90_000,
      "claude's prompt in the split view",
    );
    await sleep(500);
    t.notOk(
      shapes(run.output()).some((s) => s !== OWN),
      "no shape of claude's own before the editor",
    );

    // 1. ctrl+g: claude runs the editor, whose bar reaches the person's terminal while claude's pane has the keys
    let mark = run.output().length;
    run.pty.write('\u0007');
    await run.waitForScreen(/FAKE-VIM editing/, 30_000);
    await arrives(mark, BAR, 'the bar from the editor');
    t.pass("the editor's bar arrives through the split view");
    // a second terminal that attaches now gets the bar in its repaint, and leaves it to its own shape
    const second = runClaude({
      t,
      sandbox: { ...sandbox, claudeArgs: [] },
      args: [FLOWER_BIN, 'attach'],
      bin: process.execPath,
      cols: 120,
      rows: 40,
    });
    await second.waitForScreen(/FAKE-VIM editing/, 30_000);
    await second.waitFor(() => second.output().includes(BAR), 30_000, 'the bar in the repaint');
    t.pass('a terminal attached later gets the bar in its repaint');
    const attached = second.output().length;
    second.pty.write(PREFIX);
    await sleep(200);
    second.pty.write('d');
    await second.waitFor(
      () => /detached/i.test(second.output().slice(attached)),
      30_000,
      'the second terminal detached',
    );
    t.equal(shapes(second.output().slice(attached)).pop(), OWN, 'its own shape given back to it on detach');

    // 2. the document pane takes the keys: the terminal's own shape; claude's pane again: the bar again
    mark = run.output().length;
    run.pty.write(PREFIX);
    await sleep(200);
    run.pty.write('\t');
    await arrives(mark, OWN, "the terminal's own shape with the document pane");
    await sleep(500);
    t.same(
      shapes(after(mark)),
      [OWN],
      "the terminal's own shape and nothing else while the document pane has the keys",
    );
    mark = run.output().length;
    run.pty.write('\t');
    await arrives(mark, BAR, 'the bar again with claude pane');
    t.pass("the bar again once claude's pane has the keys");

    // 3. the editor finishes: claude has its text, and the terminal shows the block it left
    mark = run.output().length;
    writeFileSync(go, '');
    await run.waitForScreen(/❯\s+typed in the fake vim/, 30_000);
    await arrives(mark, BLOCK, 'the block the editor left');
    await sleep(500);
    const left = shapes(after(mark));
    t.equal(
      left[left.length - 1],
      BLOCK,
      `the block is the shape the terminal was left with (${JSON.stringify(left)})`,
    );

    // 4. detach: the terminal's own shape given back
    mark = run.output().length;
    run.pty.write(PREFIX);
    await sleep(200);
    run.pty.write('d');
    await run.waitFor(() => /detached/i.test(after(mark)), 30_000, 'the detach');
    const back = shapes(after(mark));
    t.equal(back[back.length - 1], OWN, `the terminal's own shape on detach (${JSON.stringify(back)})`);
  },
);
