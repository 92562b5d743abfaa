// A usage limit met by a run, with the REAL claude against the mock's 429 (MOCK_RATE_LIMIT, with the
// unified headers), in both logins (docs/claude-code.md §10). A subscription session is parked and
// continues by itself (flower-pty never types over it; Claude Code's own jitter is 30-90 s past the
// reset, so this test waits up to 150 s); an API-key session is parked and continued once by flower-pty.
import t from 'tap';
import { markerReplies } from '../../src/mock/fault-markers.js';
import { startFlower } from '../helpers/flower-run.js';

t.test(
  "subscription login: parked with its reset time, resumed by Claude Code itself, and the continuation is nobody's prompt",
  async (t) => {
    const f = await startFlower({
      t,
      respond: markerReplies(),
      login: 'oauth',
      prompt: 'keep working MOCK_RATE_LIMIT=5',
      flowerArgs: ['--window', '200k'],
    });
    const parked = await f.waitForEvent('parked', 60_000);
    t.equal(parked.autoContinue, true, 'a subscription continues by itself');
    await f.run.waitFor(() => /parked until \d\d:\d\d/.test(f.run.output()), 30_000, 'the title says until when');
    const resumed = await f.waitForEvent('resumed', 150_000);
    t.ok(resumed, 'resumed after the reset');
    await f.run.waitForScreen(/Mock reply 1 /, 30_000);
    const typedByUs = f.api.requests.filter((r) => r.isMain && /^continue$/m.test(r.lastUserText));
    t.equal(typedByUs.length, 0, 'flower-pty never typed over the auto-continue');
    const m = await f.manifestWhen((m) => m.original_prompt !== null);
    t.equal(m.original_prompt, 'keep working MOCK_RATE_LIMIT=5', "the auto-continuation is not the lineage's prompt");
    t.equal(f.events().filter((e) => e.event === 'parked').length, 1, 'parked said once');
  },
);

t.test('API-key login: parked with no auto-continue, continued once by flower-pty after the back-off', async (t) => {
  const f = await startFlower({
    t,
    respond: markerReplies(),
    login: 'api-key',
    prompt: 'keep working MOCK_RATE_LIMIT=3',
    flowerArgs: ['--window', '200k', '--parked-retry', '6'],
  });
  const parked = await f.waitForEvent('parked', 60_000);
  t.equal(parked.autoContinue, false, 'an API login does not continue by itself');
  // The title is drawn after the event is written: wait for it rather than read it at once (CI once read it early).
  await f.run.waitFor(() => /parked on a usage limit/.test(f.run.output()), 30_000, 'the title says so');
  t.pass('the title says it is parked on a usage limit');
  const resumed = await f.waitForEvent('resumed', 60_000);
  t.ok(resumed, 'resumed once flower-pty typed continue');
  await f.run.waitForScreen(/Mock reply 1 /, 30_000);
  // The refused request, then the one flower-pty's `continue` made (Claude Code joins it to the refused prompt).
  const main = f.api.requests.filter((r) => r.isMain);
  t.equal(main.length, 2, 'typed exactly once');
  t.match(main[1]?.lastUserText, /(^|\n)continue$/m, 'the second request is the typed continue');
});
