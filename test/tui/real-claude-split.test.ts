// The REAL claude (against the scripted mock API, in a throwaway sandbox) inside the split view in
// tmux: its prompt box in the session pane, the meter moving, the frozen handoff document appearing
// in the document pane, the review countdown, hold from the prefix key, and a clean quit.
import t from 'tap';
import { join } from 'node:path';
import { startMockApi, text, usageFor, type MockRequest } from '../../src/mock/messages-api.js';
import { createClaudeSandbox, resolveRepoClaude } from '../../src/mock/claude-sandbox.js';
import { FLOWER_BIN, HANDOFF_ASK, handoffDoc } from '../helpers/flower-run.js';
import { shellQuote } from '../../src/tui/editor.js';
import { startTmux } from './tmux.js';
import { runtimeDir, endServersAtTeardown } from '../helpers/run-servers.js';
import { tempRoot } from '../helpers/temp-root.js';

t.test(
  'real claude in the split view: meter, handoff document in the pane, review countdown, hold, quit',
  async (t) => {
    let turns = 0;
    const respond = (req: MockRequest) => {
      if (!req.isMain) return text('side');
      if (HANDOFF_ASK.test(req.lastUserText)) return text(handoffDoc('DOC-1'), usageFor(62_000));
      turns++;
      return text(`reply ${turns} from the mock`, usageFor(turns === 1 ? 20_000 : 60_000));
    };
    const api = await startMockApi({ respond });
    t.teardown(() => api.close());
    const root = tempRoot(t, 'flower-split-claude-');
    const runtime = runtimeDir(root); // the run server's socket folder, and its end at teardown
    endServersAtTeardown(t, runtime);
    const sandbox = await createClaudeSandbox({ root, baseUrl: api.url, env: { XDG_RUNTIME_DIR: runtime } });
    const wb = join(root, 'wb');
    const env = Object.entries({ ...sandbox.env, NCURSES_NO_UTF8_ACS: '1', LANG: 'C.UTF-8' })
      .map(([k, v]) => `${k}=${shellQuote(v)}`)
      .join(' ');
    const flower = [
      process.execPath,
      FLOWER_BIN,
      '--claude',
      resolveRepoClaude(),
      '--workbench',
      wb,
      '--window',
      '100k',
      '--review',
      '60',
      'start the toy task',
      '--',
      ...sandbox.claudeArgs,
    ]
      .map(shellQuote)
      .join(' ');
    const tmux = startTmux(t, {
      cols: 160,
      rows: 45,
      command: `cd ${shellQuote(sandbox.projectDir)} && env -i TERM="$TERM" ${env} ${flower}; echo "EXITED $?"; exec sleep 600`,
    });

    let screen = await tmux.waitFor(
      (s) => s.includes('reply 1 from the mock'),
      "claude's first reply in the pane",
      60_000,
    );
    t.match(screen, /│.*❯/, "claude's prompt box is drawn inside the session pane");
    screen = await tmux.waitFor((s) => /context 20\.0K\/100\.0K/.test(s), 'the meter at 20K', 20_000);
    t.match(screen, /handoff at 50\.0K/, 'the plan names the handoff line before the first handoff');

    await tmux.waitFor((s) => !s.includes('esc to interrupt'), 'claude idle', 20_000);
    tmux.type('go on please');
    await tmux.waitFor((s) => s.includes('go on please'), 'the typed prompt inside claude', 10_000);
    tmux.send('Enter');
    // The document text right of the session pane's border: in the document pane, not in claude's reply.
    screen = await tmux.waitFor(
      (s) => /││Counting the files of the toy project \(DOC-1\)/.test(s) && /successor in \d+s/.test(s),
      'the frozen document and the review countdown',
      60_000,
    );
    const rows = screen.split('\n');
    t.match(rows[0], /┌─ .*交接-work\.md ─+┐$/, 'the document pane is labelled with the frozen file');
    t.match(screen, /## Doing/);
    t.match(screen, /Run the final count and report it \(DOC-1\)/);
    t.match(screen, /review · successor in \d+s/);
    t.match(screen, / context 6\d\.\dK\/100\.0K · handoff due /, 'the meter moved past the line');

    tmux.send('C-]', 'p');
    await tmux.waitFor((s) => /review · held/.test(s), 'held after prefix p', 10_000);
    tmux.send('C-]', 'q');
    screen = await tmux.waitFor((s) => /EXITED \d+/.test(s), 'flower-pty exiting after prefix q', 30_000);
    t.equal(tmux.display('#{alternate_on}'), '0', 'the terminal is given back');
  },
);
