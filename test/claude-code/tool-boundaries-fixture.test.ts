// The tool-boundary payloads recorded from 2.1.332 (test/fixtures/claude-code/2.1.332/scenarios/tool-boundaries/) through
// the dialect: a failed call reads as the boundary a call that worked is, each with the id of its own call;
// a batch's hook is read but decides nothing; a refused call fires nothing after its PermissionRequest.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { toHookEvent } from '../../src/claude-code/run-hook.js';
import { hookEventsFor } from '../../src/claude-code/settings.js';
import { claudeFixtures } from '../helpers/fixtures.js';

type Payload = Record<string, unknown> & { case: string; event: string };
const recorded = readFileSync(claudeFixtures('2.1.332', 'scenarios', 'tool-boundaries', 'hook-payloads.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Payload);
const of = (c: string, event: string) => recorded.filter((p) => p.case === c && p.event === event);

t.test('every failed call fires PostToolUseFailure, read as a failed post-tool boundary of its own call', async (t) => {
  const failures = of('fails', 'PostToolUseFailure');
  t.equal(failures.length, 3, 'one for the lone failing call, one for each of the parallel pair');
  for (const p of failures) {
    t.match(toHookEvent(p.event, p), {
      kind: 'post-tool',
      subagent: false,
      tool: 'Bash',
      failed: true,
      toolUseId: p.tool_use_id,
    });
    t.match(p.error, /^Exit code 2\n/);
  }
  t.same(new Set(failures.map((p) => p.tool_use_id)).size, 3, 'each with its own call id');
  const worked = of('fails', 'PostToolUse');
  t.equal(worked.length, 1, 'a failed call fires no PostToolUse');
  t.match(toHookEvent('PostToolUse', worked[0]), { kind: 'post-tool', failed: undefined });
});

t.test(
  "PostToolBatch comes after each response's calls: read as nothing the run decides on, and not registered",
  async (t) => {
    const batches = of('fails', 'PostToolBatch');
    t.same(
      batches.map((p) => (p.tool_calls as unknown[]).length),
      [1, 1, 2],
    );
    for (const p of batches) t.match(toHookEvent(p.event, p), { kind: 'other', event: 'PostToolBatch' });
    t.notOk((hookEventsFor(null) as string[]).includes('PostToolBatch'));
  },
);

t.test('a call refused at the permission prompt fires no hook after its PermissionRequest', async (t) => {
  t.same(
    recorded.filter((p) => p.case === 'refused').map((p) => p.event),
    ['PreToolUse', 'PermissionRequest'],
  );
  t.match(toHookEvent('PermissionRequest', of('refused', 'PermissionRequest')[0]), {
    kind: 'permission-request',
    tool: 'Bash',
    summary: 'Bash touch refused-file',
  });
});
