// An automatic compaction that slips through (a user setting turns Claude Code's auto-compact back on under
// flower-pty's DISABLE_AUTO_COMPACT) is blocked through PreCompact and becomes a crossing: REAL claude
// against the mock, which compacts only through the API's 400 like the real one (src/mock/fault-markers.ts).
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markerReplies } from '../../src/mock/fault-markers.js';
import { startFlower } from '../helpers/flower-run.js';
import { readJsonl } from '../helpers/real-claude.js';

t.test('a compaction Claude Code starts on its own is blocked, and the session hands off instead', async (t) => {
  const f = await startFlower({
    t,
    respond: markerReplies(),
    prompt: 'grow MOCK_USAGE=199990',
    // flower-pty's own line far away: only Claude Code's compaction can notice this context.
    flowerArgs: ['--window', '1m', '--review', '0', '--max-generations', '2', '--write-timeout', '60'],
    prepare: (sandbox) =>
      writeFileSync(
        join(sandbox.configDir, 'settings.json'),
        JSON.stringify({ skipDangerousModePermissionPrompt: true, env: { DISABLE_AUTO_COMPACT: '0' } }),
      ),
  });
  await f.run.waitForScreen(/Mock reply/, 60_000);
  await f.run.waitFor(async () => /❯/.test(await f.run.screenText()), 20_000, 'idle prompt');
  f.run.pty.write('more please');
  await f.run.waitForScreen('more please', 10_000);
  f.run.pty.write('\r');
  const blocked = await f.waitForEvent('compaction-blocked', 90_000);
  t.ok(blocked, 'PreCompact answered with a block');
  const done = await f.waitForEvent('done', 120_000);
  t.ok(done, 'a handoff followed');
  t.notOk(
    f.events().some((e) => e.event === 'compaction'),
    'no compaction happened',
  );
  const gen1 = f.manifest().generations[0];
  const rows = readJsonl(f.sandbox.transcriptPath(gen1.session_id));
  t.notOk(
    rows.some((r) => r.subtype === 'compact_boundary'),
    'the transcript holds no compact boundary',
  );
});
