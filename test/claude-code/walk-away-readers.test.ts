// The pure readers of a walk-away run's raw JSON, checked on the payloads and rows recorded from the real
// Claude Code 2.1.332 (fixtures/claude-code/2.1.332/sessions/walk-away): the usage limit, the auto-continuation turn,
// the permission subject, and the one-line cleaning they share.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { claudeFixtures } from '../helpers/fixtures.js';
import { usageLimitOfRow } from '../../src/claude-code/usage-limit.js';
import { permissionSubject, refusedToolUseId } from '../../src/claude-code/permission-wait.js';
import { oneLine } from '../../src/core/one-line.js';

const rows = (name: string): Record<string, unknown>[] =>
  readFileSync(claudeFixtures('2.1.332', 'sessions', 'walk-away', name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const payloads = rows('hook-payloads.jsonl');
const transcriptRows = rows('usage-limit-transcript-rows.jsonl');

t.test(
  "the synthetic rows: a subscription's says until when and continues by itself, an API login's neither",
  async (tt) => {
    const [subscription, apiKey, meta, system] = transcriptRows;
    tt.same(usageLimitOfRow(subscription), { resetsAtMs: 1796094267000, limitType: 'five_hour', autoContinues: true });
    tt.same(usageLimitOfRow(apiKey), { resetsAtMs: null, limitType: null, autoContinues: false });
    tt.equal(usageLimitOfRow(meta), null);
    tt.equal(usageLimitOfRow(system), null);
    tt.equal(
      usageLimitOfRow({
        type: 'assistant',
        isApiErrorMessage: true,
        error: 'invalid_request',
        message: { content: [] },
      }),
      null,
      'a prompt-too-long row is no usage limit',
    );
  },
);

t.test('the permission subject: tool and what it acts on, one line, short', async (tt) => {
  const request = payloads.find((p) => p.hook_event_name === 'PermissionRequest');
  tt.equal(permissionSubject(request), 'Bash touch x');
  tt.equal(
    permissionSubject({ tool_name: 'Edit', tool_input: { old_string: 'a', file_path: '/p/src/a.ts' } }),
    'Edit /p/src/a.ts',
  );
  tt.equal(
    permissionSubject({ tool_name: 'mcp__x__do', tool_input: { n: 1, target: 'db' } }),
    'mcp__x__do db',
    'an unknown tool: its first string',
  );
  tt.equal(
    permissionSubject({ tool_name: 'Bash', tool_input: { command: 'echo a\n\u001b[2Jrm -rf /' } }),
    'Bash echo a [2Jrm -rf /',
  );
  const long = permissionSubject({ tool_name: 'Bash', tool_input: { command: 'x'.repeat(500) } });
  tt.equal(long.length, 120);
  tt.ok(long.endsWith('…'));
  tt.equal(permissionSubject({ tool_name: 'Bash', tool_input: {} }), 'Bash');
  tt.equal(permissionSubject(undefined), 'a tool');
});

t.test('oneLine keeps spaces, drops breaks and escapes, cuts only past the limit', async (tt) => {
  tt.equal(oneLine('/a  b/c.jsonl'), '/a  b/c.jsonl', 'a path keeps its double space');
  tt.equal(oneLine(' a\r\n\tb\u2028c\u0085 '), 'a b c');
  tt.equal(oneLine('abcdef', 6), 'abcdef');
  tt.equal(oneLine('abcdefg', 6), 'abcde…');
});

t.test('a refused tool call is known by its transcript row', async (tt) => {
  // The row 2.1.332 writes when a person answers "No" (or Esc) to a permission prompt (trimmed).
  const refused = {
    type: 'user',
    message: {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          content: "The user doesn't want to proceed with this tool use.",
          is_error: true,
          tool_use_id: 'toolu_1',
        },
      ],
    },
    toolUseResult: 'User rejected tool use',
    toolDenialKind: 'user-rejected',
    toolDenialBeforeRun: true,
  };
  tt.equal(refusedToolUseId(refused), 'toolu_1');
  tt.equal(refusedToolUseId({ ...refused, toolDenialKind: undefined }), null, 'a tool result that ran');
  tt.equal(refusedToolUseId(transcriptRows[2]), null);
  tt.equal(refusedToolUseId('x'), null);
});
