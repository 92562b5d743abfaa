// Claude Code's transcript rows read into the core's records: junk refused, the fields the meter needs
// typed, each row classified (a prompt, an interrupt, a failed request), and the cheap pre-parse filter.
import t from 'tap';
import { mayMoveMeter, parseRecord } from '../../src/claude-code/transcript-rows.js';
import { readFileSync } from 'node:fs';

t.test('parseRecord never throws and rejects junk', async (t) => {
  for (const junk of ['', 'not json', '{"type":', '42', '[]', 'null', '{"no":"type"}', '{"type":7}']) {
    t.equal(parseRecord(junk), null, JSON.stringify(junk));
  }
});

t.test('parseRecord types the records the meter reads', async (t) => {
  const a = parseRecord(
    JSON.stringify({
      type: 'assistant',
      sessionId: 's1',
      isSidechain: false,
      message: {
        id: 'msg_1',
        model: 'claude-x',
        stop_reason: null,
        content: [
          { type: 'text', text: 'hi' },
          { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } },
          { type: 'tool_use', name: 'NoId', input: {} },
        ],
        usage: { input_tokens: 1, cache_creation_input_tokens: 2, cache_read_input_tokens: 3, output_tokens: 4 },
      },
    }),
  );
  t.match(a, { kind: 'assistant', messageId: 'msg_1', model: 'claude-x', failure: null, text: 'hi' });
  t.same(a?.kind === 'assistant' ? a.usage : null, { input: 1, cacheCreation: 2, cacheRead: 3, output: 4 });
  t.equal(a?.kind === 'assistant' ? a.contentChars : -1, 2 + 4 + JSON.stringify({ command: 'ls' }).length + 4 + 2);
  t.same(a?.kind === 'assistant' ? a.toolUseIds : null, ['toolu_1'], 'the tool calls a PostToolUse hook names, by id');

  const syn = parseRecord(
    '{"type":"assistant","isApiErrorMessage":true,"message":{"model":"<synthetic>","content":[{"type":"text","text":"Prompt is too long"}]}}',
  );
  t.match(syn, {
    kind: 'assistant',
    failure: { overflow: 'Prompt is too long', usageLimit: null },
    text: 'Prompt is too long',
  });

  const u = parseRecord(
    '{"type":"user","message":{"content":[{"type":"tool_result","content":"abc"}]},"origin":{"kind":"human"}}',
  );
  t.match(u, { kind: 'user', said: 'other', contentChars: 3 }, 'a tool result is not a prompt, whatever its origin');
  t.match(parseRecord('{"type":"user","message":{"content":"fix it"},"origin":{"kind":"human"}}'), {
    kind: 'user',
    said: 'prompt',
    text: 'fix it',
  });
  t.match(
    parseRecord('{"type":"user","message":{"content":"done"},"origin":{"kind":"task-notification"}}'),
    { kind: 'user', said: 'other' },
    "2.1.332's origin says who wrote it",
  );
  t.match(
    parseRecord('{"type":"user","message":{"content":"<command-name>/clear</command-name>"}}'),
    { kind: 'user', said: 'other' },
    'a harness echo',
  );
  t.match(parseRecord('{"type":"user","message":{"content":"[Request interrupted by user]"}}'), {
    kind: 'user',
    said: 'interrupt',
  });
  t.match(parseRecord('{"type":"user","isCompactSummary":true,"message":{"content":"summary"}}'), {
    kind: 'user',
    said: 'summary',
  });

  const sys = parseRecord(
    '{"type":"system","subtype":"compact_boundary","compactMetadata":{"preTokens":100,"trigger":"auto"}}',
  );
  t.match(sys, { kind: 'system', event: { kind: 'compaction', preTokens: 100, postTokens: null } });
  t.match(parseRecord('{"type":"system","subtype":"turn_duration"}'), {
    kind: 'system',
    event: { kind: 'turn-end', source: 'turn_duration' },
  });
  t.match(parseRecord('{"type":"system","subtype":"local_command"}'), { kind: 'system', event: null });

  t.match(parseRecord('{"type":"cost-state","sessionId":"s","totalCostUSD":0.5}'), { kind: 'cost', totalCostUsd: 0.5 });
  t.match(parseRecord('{"type":"api-request-blob","sessionId":"s"}'), { kind: 'other', sessionId: 's' });
  // Wrong-typed fields degrade to "unknown", never to a crash.
  t.match(parseRecord('{"type":"assistant","message":{"usage":{"input_tokens":"9"},"content":5}}'), {
    kind: 'assistant',
    usage: { input: 0 },
    text: '',
    contentChars: 0,
  });
});

t.test('mayMoveMeter passes every record type the meter reads and skips the bulk', async (t) => {
  for (const type of ['assistant', 'user', 'system', 'cost-state']) {
    t.ok(mayMoveMeter(`{"parentUuid":null,"type":"${type}","x":1}`), type);
    t.ok(mayMoveMeter(`{"type": "${type}"}`), `${type}, pretty`);
  }
  for (const type of ['progress', 'api-request-blob', 'file-history-snapshot', 'mode', 'attachment']) {
    t.notOk(mayMoveMeter(`{"type":"${type}","sessionId":"s"}`), type);
  }
});

t.test("a person's /add-dir, accepted, names the folder claude resolved; a refused one, nothing", async (t) => {
  // Recorded on 2.1.332 (record-add-dir.ts beside it): `/add-dir ~/extra` accepted, `/add-dir ~/other` refused,
  // then the status line's workspace, whose added_dirs is what a successor is given when the grant has it.
  const fixture = new URL('../fixtures/claude-code/2.1.332/scenarios/session-moves/add-dir.jsonl', import.meta.url);
  const lines = readFileSync(fixture, 'utf8').trim().split('\n');
  const added = lines.map(parseRecord).flatMap((r) => (r?.kind === 'user' && r.addedDir !== null ? [r.addedDir] : []));
  const workspace = JSON.parse(lines.at(-1)!).statusLineWorkspace as { added_dirs: string[] };
  t.same(
    added,
    workspace.added_dirs,
    'exactly the folder the status line reports: the accepted one, as claude resolved ~/extra',
  );
  t.match(added[0], /^\/.*\/home\/extra$/);
  const row = (content: string, extra = '') =>
    parseRecord(`{"type":"user","message":{"content":${JSON.stringify(content)}},"rowSource":"local"${extra}}`);
  t.match(
    row(
      '<local-command-stdout>Added /srv/extra as a working directory for this session · /permissions to manage</local-command-stdout>',
    ),
    { kind: 'user', said: 'other', addedDir: '/srv/extra' },
  );
  t.match(
    row(
      '<command-name>/add-dir</command-name>\n            <command-message>add-dir</command-message>\n            <command-args>/srv/extra</command-args>',
    ),
    { addedDir: null },
    'the command row alone: the same for a "no"',
  );
  t.match(
    row('<local-command-stdout>Did not add /srv/extra as a working directory.</local-command-stdout>'),
    { addedDir: null },
    'a refusal',
  );
  t.match(
    row(
      '<local-command-stdout>Added /etc as a working directory for this session</local-command-stdout>',
      ',"origin":{"kind":"human"}',
    ),
    { addedDir: null },
    'the same words typed at the prompt',
  );
  t.match(
    row('<local-command-stdout>Added /etc as a working directory</local-command-stdout>', ',"isMeta":true'),
    { addedDir: null },
    'a harness row',
  );
  t.match(row('Added /etc as a working directory'), { addedDir: null }, 'the words outside the command output');
});

t.test("the permission mode claude wrote on a person's row: the mode the session was in", async (t) => {
  // A 2.1.332 session the person had moved into acceptEdits (shift+tab): its prompt rows say so.
  const fixture = new URL(
    '../fixtures/claude-code/2.1.332/sessions/interrupt/916027cd-11c4-47a2-b016-c835104931da.jsonl',
    import.meta.url,
  );
  const modes = readFileSync(fixture, 'utf8')
    .split('\n')
    .map(parseRecord)
    .flatMap((r) => (r?.kind === 'user' && r.permissionMode !== null ? [r.permissionMode] : []));
  t.same(modes, ['acceptEdits', 'acceptEdits'], 'both prompts, and no tool result or interrupt row');
  const row = (extra: string) =>
    parseRecord(`{"type":"user","message":{"content":"hi"},"permissionMode":"auto"${extra}}`);
  t.match(row(',"origin":{"kind":"human"}'), { said: 'prompt', permissionMode: 'auto' });
  t.match(row(''), { permissionMode: 'auto' }, 'a release that writes no origin');
  t.match(row(',"origin":{"kind":"task-notification"}'), { permissionMode: null }, 'not from a person');
  t.match(row(',"isMeta":true'), { permissionMode: null }, 'a harness row');
  t.match(row(',"isSidechain":true'), { permissionMode: null }, "a subagent's row");
  t.match(
    parseRecord('{"type":"user","message":{"content":"hi"},"permissionMode":7}'),
    { permissionMode: null },
    'not a string',
  );
  t.match(parseRecord('{"type":"user","message":{"content":"hi"}}'), { permissionMode: null }, 'a row without it');
});
