// The dialect's guards on real payloads: every payload recorded from several releases (the canary's
// recordings in test/fixtures/claude-code/<release>/ and the 2.1.332 walk-away set) reads as its event with
// the expected fields, and hand-made bad ones (wrong types, not an object) keep only what is valid.
import t from 'tap';
import type { Test } from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readHook, hasFeature, parseRelease, type HookEvent } from '../../src/claude-code/index.js';
import { claudeFixtures } from '../helpers/fixtures.js';

const RECORDED = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'claude-code');
const lines = (file: string): unknown[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as unknown);

// What every payload of `event` must give, whatever the release.
function checkEvent(t: Test, h: HookEvent, release: string): void {
  if (h.event === 'statusline') {
    t.type(h.sessionId, 'string', `${release} statusline: session id`);
    if (hasFeature(parseRelease(release), 'contextWindowSize'))
      t.ok((h.contextWindowSize ?? 0) > 0, `${release} statusline: the window`);
    return;
  }
  t.not(h.event, 'unknown', `${release}: a known event`);
  t.type(h.sessionId, 'string', `${release} ${h.event}: session id`);
  t.type(h.transcriptPath, 'string', `${release} ${h.event}: transcript path`);
  if (h.event === 'Stop' && hasFeature(parseRelease(release), 'lastAssistantMessage'))
    t.type(h.lastAssistantMessage, 'string', `${release} Stop: the reply text`);
  if (h.event === 'UserPromptSubmit') t.type(h.prompt, 'string', `${release} UserPromptSubmit: the prompt`);
  if (h.event === 'SessionStart') t.type(h.source, 'string', `${release} SessionStart: the source`);
}

t.test('payloads recorded from several releases', async (t) => {
  const releases = readdirSync(RECORDED).filter((d) => parseRelease(d) !== null);
  t.ok(releases.length >= 2, `recordings of several releases (${releases.join(', ')})`);
  for (const release of releases) {
    for (const file of readdirSync(join(RECORDED, release)).filter((f) => f.endsWith('.jsonl'))) {
      const event = file.replace(/\.jsonl$/, '');
      for (const payload of lines(join(RECORDED, release, file))) {
        const h = readHook(event, payload);
        t.equal(h.event, event, `${release} ${event}`);
        checkEvent(t, h, release);
      }
    }
  }
});

t.test('the 2.1.332 walk-away payloads: every hook flower-pty handles', async (t) => {
  const seen = new Set<string>();
  for (const payload of lines(claudeFixtures('2.1.332', 'sessions', 'walk-away', 'hook-payloads.jsonl'))) {
    const name = String((payload as { hook_event_name?: unknown }).hook_event_name);
    const h = readHook(name, payload);
    seen.add(h.event);
    if (name === 'SubagentStop') {
      t.match(h, { event: 'unknown', name: 'SubagentStop' }, 'an event flower-pty does not handle reads as unknown');
      continue;
    }
    checkEvent(t, h, '2.1.332');
    if (h.event === 'PermissionRequest' || h.event === 'PreToolUse') t.equal(h.toolName, 'Bash');
    if (h.event === 'PostToolUse') t.match(h, { toolName: 'Bash', toolUseId: /^toolu_/ });
    if (h.event === 'StopFailure')
      t.match(h, { error: /^(rate_limit|invalid_request)$/, lastAssistantMessage: /429|Prompt is too long/ });
    if (h.event === 'Notification') t.type(h.notificationType, 'string');
    if (h.event === 'PreCompact') t.match(h, { trigger: /^(auto|manual)$/ });
    if (h.event === 'PostCompact') t.match(h, { trigger: /^(auto|manual)$/, compactSummary: /MOCK-SUMMARY/ });
    if (h.event === 'SessionEnd') t.type(h.reason, 'string');
  }
  for (const needed of [
    'SessionStart',
    'UserPromptSubmit',
    'PreToolUse',
    'PostToolUse',
    'PermissionRequest',
    'Stop',
    'StopFailure',
    'Notification',
    'PreCompact',
    'PostCompact',
    'SessionEnd',
  ]) {
    t.ok(seen.has(needed), `recorded and read: ${needed}`);
  }
});

// Hand-made: not from any release, written to prove the guards keep only valid fields.
t.test('hand-made bad payloads keep only valid fields', async (t) => {
  t.same(readHook('Stop', { session_id: 42, stop_hook_active: 'yes', last_assistant_message: ['x'], agent_id: '' }), {
    event: 'Stop',
    sessionId: null,
    transcriptPath: null,
    cwd: null,
    permissionMode: null,
    agentId: null,
    stopHookActive: false,
    lastAssistantMessage: null,
  });
  t.match(readHook('PostToolUse', { agent_id: 'a1', tool_name: 'Bash' }), {
    event: 'PostToolUse',
    agentId: 'a1',
    toolName: 'Bash',
    toolUseId: null,
  });
  t.match(readHook('SessionStart', null), { event: 'SessionStart', sessionId: null, source: null });
  t.match(readHook('SessionStart', [1, 2]), { event: 'SessionStart', sessionId: null });
  t.match(
    readHook('statusline', { context_window: { context_window_size: 'big', used_percentage: Number.NaN }, model: 'x' }),
    {
      event: 'statusline',
      contextWindowSize: null,
      usedPercentage: null,
      modelId: null,
    },
  );
  t.match(
    readHook('PreToolUse', { tool_input: 'rm -rf /' }),
    { event: 'PreToolUse', toolInput: null },
    'tool_input must be an object',
  );
  t.match(readHook('Elicitation', { session_id: 's' }), { event: 'unknown', name: 'Elicitation', sessionId: 's' });
});
