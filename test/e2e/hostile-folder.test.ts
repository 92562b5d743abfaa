// End to end against the REAL claude: a run in a project folder whose name an archive can carry, one that
// sets the clipboard (OSC 52), retitles the window (OSC 0), asks the terminal for an answer that arrives as
// typed input (CSI 6n), starts a C1 CSI and reverses the text after it. Through a whole handoff cycle
// (the note between generations in the review window, the successor) and the end line, every byte the person's terminal
// receives is searched: none of the folder's sequences is there, and its name shows as escapes. Claude's own
// sequences pass as ever (its screen is drawn, its title kept beside flower-pty's).
import t from 'tap';
import { readFileSync } from 'node:fs';
import { text, usageFor } from '../../src/mock/messages-api.js';
import { startFlower, handoffDoc, bySession, HANDOFF_ASK } from '../helpers/flower-run.js';
import { quitWithCtrlC } from '../helpers/real-claude.js';
import { HOSTILE_NAME, HOSTILE_SEQUENCES } from '../helpers/hostile-name.js';
import { terminalText } from '../../src/core/terminal-text.js';

for (const split of [false, true]) {
  t.test(
    `a hostile project folder${split ? ' in the split view' : ''}: no sequence of its name reaches the terminal, through a handoff and the end`,
    async (t) => {
      const respond = bySession((req) => {
        if (HANDOFF_ASK.test(req.lastUserText)) return text(handoffDoc('FOLDER'), usageFor(58_000));
        return text('worked in the folder', usageFor(55_000));
      });
      const f = await startFlower({
        t,
        respond,
        prompt: 'go',
        projectName: HOSTILE_NAME,
        split,
        flowerArgs: ['--window', '100k', '--review', '2'],
      });
      t.ok(f.workbench.includes(HOSTILE_NAME), 'the workbench is in the hostile folder');
      const done = await f.waitForEvent('done', 120_000);
      t.equal(done.degraded, false);
      t.match(readFileSync(f.documentPath, 'utf8'), /FOLDER/, 'the document is written in the hostile folder');
      const start2 = await f.waitForEvent('generation-start', 60_000, (e) => e.generation === 2);
      await f.run.waitFor(() => f.api.requests.some((r) => r.sessionId === start2.session_id), 90_000, 'the successor');
      await f.run.waitForScreen(/successor here/, 60_000);
      await quitWithCtrlC(f.run);
      const exit = await f.run.exited;
      t.equal(exit.exitCode, 0, 'the run ends cleanly');
      const seen = f.run.output();
      t.match(seen, /lineage in .*manifest\.json/, 'the end line is there');
      const shown = terminalText(HOSTILE_NAME);
      t.ok(
        seen.includes(`lineage in ${terminalText(f.workbench)}/manifest.json`),
        `the end line shows the folder as escapes (${shown})`,
      );
      const around = (re: RegExp): string => {
        const hit = seen.match(re);
        return hit ? ` (found: ${terminalText(seen.slice(Math.max(0, hit.index! - 40), hit.index! + 40))})` : '';
      };
      const kinds: Array<[string, RegExp]> = [
        ['no clipboard write (OSC 52)', /\u001b\]52;/],
        ['no title of its words (OSC 0/1/2)', /\u001b\][012];[^\u0007\u001b]*TITLE-PWN/],
        ['no cursor report asked (CSI 6n)', /\u001b\[6n-/],
        ['no C1 control', /[\u0080-\u009f]/],
        ['no right-to-left override', /\u202e/],
      ];
      for (const [what, re] of kinds) t.notMatch(seen, re, `${what}${around(re)}`);
      // the notes between generations go into the run server's emulator, which forwards what it takes for
      // claude's own clipboard writes: nothing of the kind before the end line either
      const run = seen.slice(0, seen.lastIndexOf('lineage in'));
      t.notMatch(run, /\u001b\]52;/, 'no clipboard write while the run went on');
      // (the split view paints cells, so only --plain has the note whole in the stream)
      if (!split)
        t.ok(
          run.includes(`handoff written to ${terminalText(f.workbench)}`),
          'the note between generations shows the folder as escapes',
        );
      t.notMatch(seen, HOSTILE_SEQUENCES, 'nothing of the folder name at all');
      t.match(seen, /\u001b\[/, "claude's own sequences still reach it");
    },
  );
}
