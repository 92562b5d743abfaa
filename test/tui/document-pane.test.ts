// The document pane before there is a document shows the plan (the meter, the threshold); a status update
// comes several times a second while claude works, and only one whose plan text changed asks for a drawing.
import t from 'tap';
import { openOuterScreen } from '../../src/tui/outer-screen.js';
import { createDocumentPane } from '../../src/tui/document-pane.js';
import { createVirtualTty } from './virtual-tty.js';

const plan = (context: number) => ({ context, window: 200_000, at: 150_000, warnAt: 140_000, handoff: true, maxGenerations: 8, documentPath: null });

t.test('the plan: drawn when its text changes, not again for the same text; never over a document', async (t) => {
  const tty = createVirtualTty(100, 30);
  const { screen } = openOuterScreen(tty.stdout, 'xterm-256color');
  t.teardown(() => screen.destroy());
  const pane = createDocumentPane({ screen, noColor: false, at: { top: 0, left: 60, width: 40, height: 29 } });
  t.equal(pane.showPlan(plan(12_000)), true, 'the first plan is drawn');
  t.match(pane.text(), /context 12.0K of 200.0K/);
  t.equal(pane.showPlan(plan(12_000)), false, 'the same plan again: nothing to draw');
  t.equal(pane.showPlan(plan(13_000)), true, 'a new reading: drawn');
  t.match(pane.text(), /context 13.0K of 200.0K/);
  pane.showDocument('/tmp/handoff.md', '# Doing\nthe work\n');
  t.equal(pane.showPlan(plan(14_000)), false, 'a document shown: the plan never replaces it');
  t.match(pane.text(), /the work/);
});
