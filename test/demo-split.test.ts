// `flower-pty demo` in its default face, the split view, rendered by tmux as a person sees it: both
// panes and the meter with the narration mid-run, the frozen document in its pane during review, the
// successor, then the demo ending on its own with the summary and the terminal given back.
import t from 'tap';
import type { Test } from 'tap';
import { startTmux } from './tui/tmux.js';
import { shellQuote } from '../src/tui/editor.js';
import { FLOWER_BIN } from './helpers/flower-run.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// the demo in tmux, its throwaway folder (and its run's) under a temp root of this test's, removed at the end
function demoInTmux(t: Test) {
  const root = mkdtempSync(join(tmpdir(), 'flower-demo-split-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const env = `NCURSES_NO_UTF8_ACS=1 LANG=C.UTF-8 PATH=${shellQuote(process.env.PATH ?? '')} HOME=${shellQuote(process.env.HOME ?? '')} TMPDIR=${shellQuote(root)}`;
  return startTmux(t, {
    cols: 120,
    rows: 36,
    command: `env -i TERM="$TERM" ${env} ${shellQuote(process.execPath)} ${shellQuote(FLOWER_BIN)} demo; echo "EXITED $?"; exec sleep 600`,
  });
}

t.test('the demo in the split view, mid-run and at the end', async (t) => {
  const tmux = demoInTmux(t);
  let screen = await tmux.waitFor(
    (s) => /context [1-4]\d\.0K\/100\.0K/.test(s) && s.includes('handoff document'),
    'the meter climbing and the document pane',
    90_000,
  );
  t.match(screen, /┌─ ▶ claude/, 'the session pane');
  t.match(screen, /┌─ handoff document/, 'the document pane');
  t.match(screen, /No handoff yet/, 'empty until the first handoff');
  t.match(screen, /demo: (a toy task with real Bash calls|near the line)/, 'the narration in the status bar');
  t.match(screen, /Setting up the toy project\./, "claude's screen inside the session pane");

  // the first review waits for the person, the keys to edit and to go on on the screen
  screen = await tmux.waitFor(
    (s) => /demo: frozen below and held for you; C-\] e edits it, C-\] p goes on/.test(s),
    'the review held for the person',
    60_000,
  );
  t.match(screen, /交接-work\.md/, 'the document pane shows the frozen file');
  t.match(screen, /Doing · 现在在做/);
  t.match(screen, /review · held/, 'the status bar says held, no countdown');
  tmux.send('C-]', 'p');

  screen = await tmux.waitFor((s) => /gen 2\/8/.test(s), 'generation 2', 60_000);
  screen = await tmux.waitFor((s) => /EXITED \d+/.test(s), 'the demo ending on its own', 90_000);
  t.match(screen, /EXITED 0/);
  t.match(screen, /flower-pty demo: a full handoff cycle in \d+s\./);
  t.equal(tmux.display('#{alternate_on}'), '0', 'the terminal is given back');
});

t.test('C-] q quits the demo: the person\'s choice, exit 0, no "what went wrong"', async (t) => {
  const tmux = demoInTmux(t);
  await tmux.waitFor((s) => /context [1-4]\d\.0K\/100\.0K/.test(s), 'the meter climbing', 90_000);
  tmux.send('C-]', 'q');
  const screen = await tmux.waitFor((s) => /EXITED \d+/.test(s), 'the demo ending', 60_000);
  t.match(screen, /EXITED 0/);
  t.match(screen, /flower-pty demo: you quit it after \d+s, before a full cycle/);
  t.notMatch(screen, /what went wrong|flower\.log/);
});

t.test('C-] q in the held review: still the person\'s choice, exit 0, no "what went wrong"', async (t) => {
  const tmux = demoInTmux(t);
  await tmux.waitFor((s) => /review · held/.test(s), 'the review held for the person', 120_000);
  tmux.send('C-]', 'q');
  const screen = await tmux.waitFor((s) => /EXITED \d+/.test(s), 'the demo ending', 60_000);
  t.match(screen, /EXITED 0/, 'a quit with the first document frozen and no successor yet is no failure');
  t.match(screen, /flower-pty demo: you quit it after \d+s, before a full cycle/);
  t.notMatch(screen, /what went wrong|stopped before/);
});
