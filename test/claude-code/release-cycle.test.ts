// One handoff cycle at the dialect level on whatever release testClaude() is (the canary runs it on every
// release it installs; CI on the pinned one): the REAL claude with the settings src/claude-code builds FOR
// THAT RELEASE (each hook routed to a recorder), a Stop blocked with the handoff request, the document
// coming back in the next Stop's last_assistant_message. Proves the release shows no settings dialog and
// that readHook() understands its payloads. With FLOWER_PTY_RECORD_PAYLOADS=<dir> the payloads are kept
// there (how test/fixtures/claude-code/<release>/ was recorded).
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { startMockApi, scripted, text, usageFor } from '../../src/mock/messages-api.js';
import { createClaudeSandbox } from '../../src/mock/claude-sandbox.js';
import { buildSettings, hookEventsFor, readHook, hasFeature, STATUSLINE_EVENT } from '../../src/claude-code/index.js';
import { recordHooks, runClaude, tempRoot, testRelease } from '../helpers/real-claude.js';
import { handoffDoc } from '../helpers/flower-run.js';

const ASK = 'HANDOFF-ASK: write the handoff document now';

t.test('a handoff cycle with the settings built for this release', async (t) => {
  const release = testRelease();
  const api = await startMockApi({
    respond: scripted((req) =>
      req.lastUserText.includes('HANDOFF-ASK')
        ? text(handoffDoc('CYCLE'), usageFor(52_000))
        : text('first reply of the cycle', usageFor(50_000)),
    ),
  });
  t.teardown(() => api.close());
  const root = tempRoot(t);
  const sandbox = await createClaudeSandbox({ root, baseUrl: api.url, env: { DISABLE_AUTO_COMPACT: '1' } });
  // The recorder's hook program takes <dir> <event>: the dialect appends the event to the command argv.
  const dir = join(root, 'hooks');
  const recorder = recordHooks(dir);
  const script = join(dir, 'record-hook.cjs');
  const settings = buildSettings({ hookCommand: [process.execPath, script, dir], release, statusLine: true });
  const settingsPath = join(root, 'dialect-settings.json');
  writeFileSync(settingsPath, JSON.stringify(settings, null, 2));
  recorder.replyOnce('Stop', { decision: 'block', reason: ASK });

  const claude = runClaude({
    t,
    sandbox,
    args: ['--session-id', randomUUID(), '--settings', settingsPath, 'start the cycle'],
  });
  const read = (event: string) =>
    (
      JSON.parse(
        `[${readFileSync(join(dir, `${event}.jsonl`), 'utf8')
          .trim()
          .split('\n')
          .join(',')}]`,
      ) as unknown[]
    ).map((p) => readHook(event, p));
  const count = (event: string) =>
    existsSync(join(dir, `${event}.jsonl`))
      ? readFileSync(join(dir, `${event}.jsonl`), 'utf8')
          .trim()
          .split('\n').length
      : 0;
  await claude.waitFor(() => count('Stop') >= 2, 120_000, 'two Stop hooks (the blocked one, then the document)');
  const screen = await claude.screenText();
  t.notMatch(claude.output(), /Settings Error|Invalid key in record/, "no dialog about flower-pty's settings");

  const stops = read('Stop');
  t.match(stops[0], { event: 'Stop', stopHookActive: false });
  t.match(stops[1], { event: 'Stop', stopHookActive: true }, 'the second Stop follows a block');
  if (hasFeature(release, 'lastAssistantMessage')) {
    const last = stops[1]?.event === 'Stop' ? stops[1].lastAssistantMessage : null;
    t.match(last, /## Next[\s\S]*CYCLE/, 'the document arrives in last_assistant_message');
  }
  const main = api.requests.filter((r) => r.isMain);
  t.ok(
    main.some((r) => r.lastUserText.includes('HANDOFF-ASK')),
    'the Stop block reason reached the model',
  );
  const start = read('SessionStart')[0];
  t.match(start, { event: 'SessionStart', source: 'startup' });
  t.type(start?.sessionId, 'string');
  if (hasFeature(release, 'contextWindowSize')) {
    await claude.waitFor(() => count(STATUSLINE_EVENT) >= 1, 30_000, 'a status line call');
    const status = read(STATUSLINE_EVENT).at(-1);
    t.match(status, { event: 'statusline' });
    t.ok(status?.event === 'statusline' && (status.contextWindowSize ?? 0) > 0, 'the status line reports a window');
  }
  t.same(Object.keys(settings.hooks as object), hookEventsFor(release), 'exactly the hooks this release knows');
  t.ok(screen.length > 0);

  const keep = process.env.FLOWER_PTY_RECORD_PAYLOADS;
  if (keep) {
    mkdirSync(keep, { recursive: true });
    for (const event of [...hookEventsFor(release), STATUSLINE_EVENT]) {
      if (existsSync(join(dir, `${event}.jsonl`)))
        copyFileSync(join(dir, `${event}.jsonl`), join(keep, `${event}.jsonl`));
    }
  }
});
