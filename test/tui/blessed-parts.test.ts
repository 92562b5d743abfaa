// The parts of blessed the split view draws with: loaded alone, none of its other widgets is; and they are
// the very modules blessed's index loads, so blessed loaded whole later shares them.
import t from 'tap';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import * as parts from '../../src/tui/blessed-parts.js';

const require = createRequire(import.meta.url);
const widgetsLoaded = () =>
  Object.keys(require.cache)
    .filter((file) => /[\\/]blessed[\\/]lib[\\/]widgets[\\/]/.test(file))
    .map((file) => basename(file, '.js'))
    .sort();

t.test('a screen and boxes, and what they need: no other widget', async (t) => {
  // screen.js needs log.js, which is a scrollable text; the document pane is a scrollable box
  t.same(widgetsLoaded(), ['box', 'element', 'log', 'node', 'screen', 'scrollablebox', 'scrollabletext']);
});

t.test('blessed loaded whole has the same screen, box, helpers and tables', async (t) => {
  const blessed = require('blessed') as Record<string, unknown> & { helpers: { escape: unknown } };
  t.ok(widgetsLoaded().length > 20, 'now every widget is loaded');
  t.equal(blessed.screen, parts.screen);
  t.equal(blessed.box, parts.box);
  t.equal(blessed.escape, parts.escapeTags);
  t.equal(blessed.colors, parts.colors);
  t.equal(blessed.unicode, parts.unicode);
  t.equal(blessed.Tput, parts.Tput);
  t.equal(parts.escapeTags('{bold}'), '{open}bold{close}', 'escapeTags is blessed’s tag escape');
});
