// Claude Code's tool calls and results as tool runs, into the failure record: failed shell commands, failed
// tools, edits undone; not a person's refusal, not a cancelled sibling, not a subagent's rows; and on the
// real transcripts in test/fixtures/shared, what each one's record holds.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolRunReader, errorLine } from '../../src/claude-code/tool-runs.js';
import { TRANSCRIPT_ROWS } from '../../src/claude-code/transcript-rows.js';
import { createSessionReader } from '../../src/claude-code/session-reader.js';
import {
  EMPTY_FAILURES,
  MAX_FAILURES,
  failureLine,
  recordRun,
  topFailures,
  type FailureRecord,
} from '../../src/core/dead-ends/failure-record.js';
import type { ToolRun } from '../../src/core/dead-ends/tool-run.js';

const use = (id: string, name: string, input: object, extra: object = {}) => ({
  type: 'assistant',
  ...extra,
  message: { content: [{ type: 'tool_use', id, name, input }] },
});
const result = (
  id: string,
  content: string,
  isError: boolean,
  at = '2026-12-03T07:00:00.000Z',
  extra: object = {},
) => ({
  type: 'user',
  timestamp: at,
  ...extra,
  message: { content: [{ type: 'tool_result', tool_use_id: id, content, ...(isError ? { is_error: true } : {}) }] },
});

function feed(rows: object[]): { runs: ToolRun[]; record: FailureRecord } {
  const reader = createToolRunReader();
  const runs = rows.flatMap((r) => reader.row(r));
  return { runs, record: runs.reduce(recordRun, EMPTY_FAILURES) };
}

t.test('the error line: the exit code and the first telling line; a tool error without its wrapper', async (t) => {
  t.equal(
    errorLine('Exit code 2\nCompiling 40 files (.ex)\nGenerated app\n** (CompileError) lib/a.ex:3: undefined function'),
    'exit 2: ** (CompileError) lib/a.ex:3: undefined function',
  );
  t.equal(errorLine('Exit code 1\nsome output\nmore'), 'exit 1: some output', 'no telling line: the first one');
  t.equal(errorLine('Exit code 128'), 'exit 128');
  t.equal(
    errorLine('<tool_use_error>String to replace not found in file.\nString: x</tool_use_error>'),
    'String to replace not found in file.',
  );
  t.equal(
    errorLine('\n\n  Exit code 3  \n\n   \n<tool_use_error></tool_use_error>\n  Compiling\n'),
    'exit 3: Compiling',
    'blank lines and an empty wrapper skipped',
  );
  t.equal(errorLine('Building\nExit code 1\nok'), 'Building', 'an exit line only counts as the first line');
  t.equal(errorLine('   \n'), 'failed');
  const long = [
    'Exit code 1',
    ...Array.from({ length: 50_000 }, (_, i) => `compiled ${i}`),
    'TypeError: x is undefined',
    'Error: later',
  ].join('\n');
  t.equal(errorLine(long), 'exit 1: TypeError: x is undefined', 'the first telling line of a long output');
});

t.test('failed commands and tools are recorded once each, with tries and times; successes are not', async (t) => {
  const { runs, record } = feed([
    use('a', 'Bash', { command: 'npm run build' }),
    result('a', 'Exit code 1\nError: cannot find module x', true, '2026-12-03T07:00:00.000Z'),
    use('b', 'Bash', { command: 'cd /w && npm  run build 2>&1 | tail -5' }),
    result('b', 'Exit code 1\nError: cannot find module y', true, '2026-12-03T07:05:00.000Z'),
    use('c', 'Read', { file_path: '/w/huge.json' }),
    result('c', 'File content (85812 tokens) exceeds maximum allowed tokens (25000).', true),
    use('d', 'Bash', { command: 'ls' }),
    result('d', 'a b', false),
  ]);
  t.equal(runs.length, 4);
  t.equal(record.failures.length, 2);
  const [build, read] = topFailures(record, 15);
  t.equal(build!.tries, 2, 'the same command, normalised, twice');
  t.equal(build!.command, 'npm run build');
  t.equal(build!.error, 'exit 1: Error: cannot find module y', 'the newest error');
  t.equal(build!.firstAt, Date.parse('2026-12-03T07:00:00.000Z'));
  t.equal(build!.lastAt, Date.parse('2026-12-03T07:05:00.000Z'));
  t.equal(read!.tool, 'Read');
  t.same(read!.files, ['/w/huge.json']);
  t.equal(
    failureLine(build!),
    '`npm run build` (Bash) failed 2 times (07:00:00 to 07:05:00): exit 1: Error: cannot find module y',
  );
});

t.test(
  'not failures: a refusal, a cancelled sibling, a subagent, a result with no call; a later success is noted',
  async (t) => {
    const { record } = feed([
      use('a', 'Bash', { command: 'rm -rf build' }),
      result('a', "The user doesn't want to proceed with this tool use. The tool use was rejected", true),
      use('b', 'Bash', { command: 'make x' }),
      result('b', '<tool_use_error>Sibling tool call errored</tool_use_error>', true),
      use('c', 'Bash', { command: 'make y' }, { isSidechain: true }),
      result('c', 'Exit code 2', true, undefined, { isSidechain: true }),
      result('zzz', 'Exit code 1', true),
      use('d', 'Bash', { command: 'make z' }),
      result('d', 'Exit code 2\nmake: *** No rule to make target', true),
      use('e', 'Bash', { command: 'make  z' }),
      result('e', 'done', false),
    ]);
    t.equal(record.failures.length, 1);
    t.equal(record.failures[0]!.command, 'make z');
    t.ok(record.failures[0]!.workedLater, 'the same command worked later');
    t.match(failureLine(record.failures[0]!), /; worked later$/);
  },
);

t.test('an edit undone by a later edit of the same text is a failure; another edit is not', async (t) => {
  const { record } = feed([
    use('a', 'Edit', { file_path: '/w/a.ts', old_string: 'const x = 1', new_string: 'const x = 2' }),
    result('a', 'ok', false),
    use('b', 'Edit', { file_path: '/w/a.ts', old_string: 'let y', new_string: 'const y' }),
    result('b', 'ok', false),
    use('c', 'Edit', { file_path: '/w/a.ts', old_string: 'const x = 2', new_string: 'const x = 1' }),
    result('c', 'ok', false),
    use('d', 'Edit', { file_path: '/w/b.ts', old_string: 'const x = 2', new_string: 'const x = 1' }),
    result('d', 'ok', false),
  ]);
  t.equal(record.failures.length, 1);
  t.equal(record.failures[0]!.kind, 'reverted-edit');
  t.same(record.failures[0]!.files, ['/w/a.ts']);
  t.match(failureLine(record.failures[0]!), /^`\/w\/a\.ts` \(Edit\) undone/);
});

t.test('bounded: the least tried, oldest entries go first; the newest stays', async (t) => {
  let r = EMPTY_FAILURES;
  const fail = (command: string, at: number): ToolRun => ({
    id: command,
    tool: 'Bash',
    command,
    files: [],
    input: command,
    ok: false,
    error: 'exit 1',
    at,
    edit: null,
  });
  r = recordRun(r, fail('kept twice', 0));
  r = recordRun(r, fail('kept twice', 1));
  for (let i = 0; i < MAX_FAILURES + 10; i++) r = recordRun(r, fail(`cmd ${i}`, 10 + i));
  t.equal(r.failures.length, MAX_FAILURES);
  t.equal(r.dropped, 11);
  t.ok(
    r.failures.some((f) => f.command === 'kept twice'),
    'the most tried is kept',
  );
  t.ok(
    r.failures.some((f) => f.command === `cmd ${MAX_FAILURES + 9}`),
    'the newest is kept',
  );
  t.notOk(
    r.failures.some((f) => f.command === 'cmd 0'),
    'the oldest once-tried went',
  );
});

t.test(
  'every call and result row is one the meter parses anyway, so the reader scans no line of its own',
  async (t) => {
    for (const row of [use('a', 'Bash', { command: 'x' }), result('a', 'x', true)])
      t.ok(TRANSCRIPT_ROWS.mayMoveMeter(JSON.stringify(row)));
  },
);

// The real transcripts: how many failures each one's main thread has (docs/dead-ends.md keeps the table).
const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const EXPECTED: Array<[string, number]> = [
  // five failed commands and one edit undone
  ['shared/spotter-2.1.39/4d5611e5-241a-462a-8d15-5122611a9569.jsonl', 6],
  // twelve failed results, nine calls (`mix test <file>` failed four times)
  ['shared/spotter-2.1.39/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl', 9],
  ['shared/spotter-2.1.39/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl', 8],
  // its two errors are a person's refusals
  ['shared/spotter-2.1.39/short.jsonl', 0],
  // its three errors are its subagent's
  ['shared/spotter-2.1.39/subagent.jsonl', 0],
  ['claude-code/2.1.332/sessions/compaction-reactive-and-subagent/72ec2795-483a-4f28-b4e2-a3308c76fd3f.jsonl', 1],
  ['claude-code/2.1.332/sessions/interrupt/916027cd-11c4-47a2-b016-c835104931da.jsonl', 0],
];
t.test('the real transcripts: the failure record of each, through the live reader', async (t) => {
  for (const [file, want] of EXPECTED) {
    let record = EMPTY_FAILURES;
    const reader = createSessionReader({ toolRun: (run) => void (record = recordRun(record, run)) });
    reader.push(readFileSync(join(FIXTURES, file)));
    reader.end();
    t.equal(
      record.failures.length,
      want,
      `${file}: ${record.failures.map((f) => `${f.tries}× ${f.input.slice(0, 40)}`).join(' | ')}`,
    );
  }
});
