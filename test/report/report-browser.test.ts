// The report in a real browser: headless Chromium (Debian's `chromium`, installed by .ci/run) loads
// the page from disk with no console error and no network request, and a screenshot is taken.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeLineage, doc } from '../helpers/report-lineage.js';
import { CHROMIUM, loadInChromium } from '../../scripts/report-screenshot.mjs';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'flower-pty.js');

t.test('Chromium shows the page: no network, no console error, no script, a real screenshot', async (t) => {
  // Not skipped when missing: CI installs it, and a developer is told how.
  t.ok(
    existsSync(CHROMIUM),
    `Chromium at ${CHROMIUM} (apt-get install -y chromium, as .ci/run does; or set FLOWER_PTY_CHROMIUM)`,
  );
  if (!existsSync(CHROMIUM)) return;
  const l = makeLineage([
    {
      sessionId: 'dddddddd-0000-4000-8000-000000000001',
      readings: Array.from({ length: 40 }, (_, i) => ({ after: 10_000 + i * 12_000, context: 15_000 + i * 3_700 })),
      end: 'handoff',
      document: doc('Append letters.txt, then show it.'),
      draft: doc('Append letters.txt.'),
    },
    {
      sessionId: 'dddddddd-0000-4000-8000-000000000002',
      readings: Array.from({ length: 20 }, (_, i) => ({ after: 5_000 + i * 20_000, context: 12_000 + i * 2_000 })),
      end: 'quit',
      document: undefined,
      junk: ['<script>window.__pwned = 1</script>'],
    },
  ]);
  t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
  // A document that tries to run script and to fetch from the network.
  const current = join(l.workbench, 'notes', '交接-work.md');
  const hostile = doc('Go on. <script>fetch("http://127.0.0.1:9/x")</script> <img src="http://127.0.0.1:9/y.png">');
  writeFileSync(current, hostile);
  const r = spawnSync(process.execPath, [bin, 'report', '--workbench', l.workbench], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: l.root, CLAUDE_CONFIG_DIR: l.configDir },
    timeout: 60_000,
  });
  t.equal(r.status, 0, r.stderr);
  const png = join(l.root, 'report.png');
  const seen = await loadInChromium(join(l.workbench, 'report.html'), png);
  t.same(seen.requests, [], 'no network request of any kind');
  t.same(seen.errors, [], 'no console error');
  t.equal(seen.scripts, 0, "no script element: the document's script is text");
  t.equal(seen.polylines, 2, 'the chart has both curves');
  t.equal(seen.title, 'flower-pty report · work');
  const bytes = readFileSync(png);
  t.same([...bytes.subarray(1, 4)].map((b) => String.fromCharCode(b)).join(''), 'PNG');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  t.ok(width >= 1000 && height >= 1200, `a full page: ${width}×${height}`);
  t.ok(bytes.length > 40_000, `not a blank image: ${bytes.length} bytes`);
  // on a phone (390 px): the page fits its width; the wide timeline scrolls within itself
  const phone = await loadInChromium(join(l.workbench, 'report.html'), join(l.root, 'report-phone.png'), {
    width: 390,
    height: 844,
  });
  t.ok(phone.scrollWidth <= 390, `the report fits a phone's width (${phone.scrollWidth} px)`);
  t.equal(phone.polylines, 2);
});
