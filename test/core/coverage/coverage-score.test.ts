// The coverage scorer on real transcripts and on handmade rows: an empty document finds nothing, the
// transcript's own words find everything, a document without one file misses exactly that file; and each
// category's rule, with the near misses that must not count.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFactRowReader } from '../../../src/claude-code/fact-rows.js';
import {
  CATEGORIES,
  isTestCommand,
  successorFacts,
  type SuccessorFacts,
} from '../../../src/core/coverage/successor-facts.js';
import { isInstruction, sentences } from '../../../src/core/coverage/content-words.js';
import { belowThreshold, scoreDocument, scoreTotals, WORD_SHARE } from '../../../src/core/coverage/coverage-score.js';
import type { FactRow } from '../../../src/core/coverage/fact-row.js';
import { createCompactionScan } from '../../../src/core/eval/compaction-scan.js';
import { claudeFixtures, fixturesDir } from '../../helpers/fixtures.js';

// A transcript's main-thread fact rows, up to (not including) its first compaction summary.
function rowsBeforeSummary(path: string): FactRow[] {
  const reader = createFactRowReader();
  const rows: FactRow[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    for (const row of reader.row(value)) {
      if (row.kind === 'summary') return rows;
      rows.push(row);
    }
  }
  return rows;
}

// The transcript's own words as a document: what the person typed, what the model said, every call's
// command and files, every task's subject.
function dump(rows: readonly FactRow[]): string {
  const out: string[] = [];
  for (const r of rows) {
    if (r.kind === 'prompt' || r.kind === 'said') out.push(r.text);
    else if (r.kind === 'run') out.push(r.run.command ?? '', r.run.input, ...r.run.files, ...r.changed);
    else if (r.kind === 'checklist') out.push(...r.items.map((i) => i.subject));
    else if (r.kind === 'scope' && r.change.kind === 'task-created') out.push(r.change.subject);
    else if (r.kind === 'branch') out.push(r.name);
  }
  return out.join('\n');
}

const REAL = [
  join(fixturesDir(), 'spotter-2.1.39', '4d5611e5-241a-462a-8d15-5122611a9569.jsonl'),
  join(fixturesDir(), 'spotter-2.1.39', '8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl'),
  join(fixturesDir(), 'spotter-2.1.39', 'fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl'),
];

t.test(
  'real transcripts: nothing in an empty document, everything in their own words, one file left out is missed',
  async (t) => {
    for (const path of REAL) {
      const rows = rowsBeforeSummary(path);
      const facts = successorFacts(rows);
      t.ok(facts.files.length >= 5, `${path}: the files it changed (${facts.files.length})`);
      t.ok(facts.identifiers.length >= 1, `${path}: its identifiers`);
      const empty = scoreDocument(facts, '');
      for (const c of CATEGORIES) {
        t.equal(empty[c].found, 0, `${c}: an empty document finds nothing`);
        t.equal(empty[c].total, facts[c].length);
        t.equal(empty[c].missing.length, facts[c].length, `${c}: all of it missing`);
      }
      const own = scoreDocument(facts, dump(rows));
      for (const c of CATEGORIES) t.same(own[c].missing, [], `${c}: the transcript's own words hold every fact`);
      t.same(belowThreshold(own, 1), [], 'nothing below any threshold');
      t.same(
        belowThreshold(empty, 0.5),
        CATEGORIES.filter((c) => facts[c].length > 0),
        'every category with facts below',
      );
      // Every file named by its path but one, whose file name no other file shares.
      const paths = facts.files.map((f) => f.text);
      const base = (p: string): string => p.split('/').at(-1)!;
      const left = paths.find((p) => paths.filter((q) => base(q) === base(p)).length === 1)!;
      const doc = paths
        .filter((p) => p !== left)
        .map((p) => `- \`${p}\``)
        .join('\n');
      t.same(
        scoreDocument(facts, doc).files,
        { found: paths.length - 1, total: paths.length, missing: [left] },
        'exactly the file left out',
      );
    }
  },
);

t.test('the summary of a real compaction, scored as the command scores it', async (t) => {
  const scan = createCompactionScan(createFactRowReader());
  scan.push(readFileSync(REAL[0]!));
  const result = scan.end();
  t.equal(result.summaries.length, 1, 'one compaction summary');
  const s = result.summaries[0]!;
  t.equal(s.line, 755, 'its 1-based line');
  t.equal(s.score.files.total, 7);
  t.ok(s.score.files.found > 0 && s.score.files.found <= s.score.files.total);
  t.same(
    s.score,
    scoreDocument(successorFacts(rowsBeforeSummary(REAL[0]!)), summaryText(REAL[0]!, 755)),
    'the same as the scorer on the rows before it',
  );
});

function summaryText(path: string, line: number): string {
  const row = JSON.parse(readFileSync(path, 'utf8').split('\n')[line - 1]!) as {
    message: { content: string | Array<{ text?: string }> };
  };
  const c = row.message.content;
  return typeof c === 'string' ? c : c.map((b) => b.text ?? '').join('\n');
}

// Handmade Claude Code rows, through the dialect: a person, the model, tool calls and their results.
let n = 0;
const user = (content: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'user',
  isSidechain: false,
  message: { role: 'user', content },
  ...extra,
});
const said = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'assistant',
  isSidechain: false,
  message: { id: `m${++n}`, role: 'assistant', content: [{ type: 'text', text }] },
  ...extra,
});
function call(
  name: string,
  input: Record<string, unknown>,
  result: { ok: boolean; text?: string; structured?: unknown },
  extra: Record<string, unknown> = {},
) {
  const id = `toolu_${++n}`;
  return [
    {
      type: 'assistant',
      isSidechain: false,
      message: { id: `m${n}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
      ...extra,
    },
    {
      type: 'user',
      isSidechain: false,
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, is_error: !result.ok, content: result.text ?? 'ok' }],
      },
      toolUseResult: result.structured ?? {},
      ...extra,
    },
  ];
}

function factsOf(rows: unknown[]): SuccessorFacts {
  const reader = createFactRowReader();
  return successorFacts(rows.flatMap((r) => reader.row(r)));
}

t.test("instructions: the person's instruction-like sentences only, English and Spanish", async (t) => {
  const facts = factsOf([
    user('Fix the login form. Never touch the payments module. Always run the linter before committing!'),
    user('Usa pnpm en vez de npm. No cambies la API pública; solo el cliente.'),
    user('Do not push to main', { isSidechain: true }),
    user([{ type: 'tool_result', tool_use_id: 'x', content: 'never do this from a tool result' }]),
    user('Never trust hook context', { isMeta: true }),
    user('STOP the current work. Your context is nearly full: 150k of 200k tokens used. Never write preamble.'),
    user('You are TAKING OVER an ongoing task from a previous session. Do not ask anyone for context.'),
    said('I must never forget this, the model says'),
    user('<command-name>/model</command-name> never'),
  ]);
  t.same(
    facts.instructions.map((i) => i.text),
    [
      'Never touch the payments module.',
      'Always run the linter before committing!',
      'Usa pnpm en vez de npm.',
      'No cambies la API pública',
      'solo el cliente.',
    ],
  );
  t.same(
    facts.instructions[0]!.match,
    { rule: 'words', words: ['touch', 'payments', 'module'] },
    'content words, markers and stopwords out',
  );
  const score = scoreDocument(
    facts,
    'Constraints: the PAYMENTS module is off limits; use pnpm, not npm. Keep the api publica as it is.',
  );
  t.same(score.instructions.missing, ['Always run the linter before committing!', 'solo el cliente.']);
  t.equal(score.instructions.found, 3, 'accents and case folded');
});

t.test('instructions: the stated share of content words, no less', async (t) => {
  t.equal(WORD_SHARE, 0.6);
  const facts = factsOf([user('Never deploy alpha bravo charlie delta echo.')]);
  t.same(facts.instructions[0]!.match, {
    rule: 'words',
    words: ['deploy', 'alpha', 'bravo', 'charlie', 'delta', 'echo'],
  });
  t.equal(scoreDocument(facts, 'deploy alpha bravo charlie').instructions.found, 1, '4 of 6 words: found');
  t.equal(scoreDocument(facts, 'deploy alpha bravo').instructions.found, 0, '3 of 6 words: missed');
});

t.test('files: the paths changed by tools that worked, found by path or file name', async (t) => {
  const facts = factsOf([
    ...call('Write', { file_path: '/p/src/new-thing.ts', content: 'x' }, { ok: true }),
    ...call('Edit', { file_path: '/p/src/a.ts', old_string: 'a', new_string: 'b' }, { ok: true }),
    ...call('MultiEdit', { file_path: '/p/lib/multi.py', edits: [] }, { ok: true }),
    ...call('NotebookEdit', { notebook_path: '/p/nb/analysis.ipynb', new_source: 'x' }, { ok: true }),
    ...call(
      'Edit',
      { file_path: '/p/src/failed.ts', old_string: 'a', new_string: 'b' },
      { ok: false, text: 'String to replace not found' },
    ),
    ...call('Read', { file_path: '/p/src/read-only.ts' }, { ok: true }),
    ...call('Write', { file_path: '/p/src/sub.ts', content: 'x' }, { ok: true }, { isSidechain: true }),
  ]);
  t.same(
    facts.files.map((f) => f.text),
    ['/p/src/new-thing.ts', '/p/src/a.ts', '/p/lib/multi.py', '/p/nb/analysis.ipynb'],
  );
  const score = scoreDocument(
    facts,
    'Changed `src/new-thing.ts`, /p/src/a.ts and analysis.ipynb. Not multi.pyc, nor data.ts.',
  );
  t.same(score.files.missing, ['/p/lib/multi.py'], 'a longer name is not the file');
  t.same(scoreDocument(facts, 'the other_a.ts and xa.ts').files.found, 0, 'a file name inside another word is not it');
});

t.test('dead ends: failures that never worked later, by normalised command or by tool and target', async (t) => {
  const facts = factsOf([
    ...call(
      'Bash',
      { command: 'cd /p && npm run build:prod 2>&1 | tail -20' },
      { ok: false, text: 'Exit code 1\nerror TS2304' },
    ),
    ...call('Bash', { command: 'npm test' }, { ok: false, text: 'Exit code 1\nnot ok 1' }),
    ...call('Bash', { command: 'npm test' }, { ok: true }),
    ...call(
      'Edit',
      { file_path: '/p/src/config.ts', old_string: 'a', new_string: 'b' },
      { ok: false, text: '<tool_use_error>String to replace not found</tool_use_error>' },
    ),
    ...call('Skill', { skill: 'team:release' }, { ok: false, text: 'Unknown skill' }),
  ]);
  t.same(
    facts.dead_ends.map((d) => d.text),
    ['cd /p && npm run build:prod 2>&1 | tail -20', 'Edit /p/src/config.ts', 'Skill team:release'],
  );
  t.same(facts.dead_ends[0]!.match, { rule: 'command', command: 'npm run build:prod' });
  const doc =
    '`./npm run build:prod` fails with TS2304. The edit of config.ts did not apply. The team:release skill does not exist.';
  t.same(scoreDocument(facts, doc).dead_ends, { found: 3, total: 3, missing: [] });
  t.same(
    scoreDocument(facts, 'npm run build fails; npm run build:production too').dead_ends.missing[0],
    'cd /p && npm run build:prod 2>&1 | tail -20',
    'a near command is not the command',
  );
});

t.test('tasks: open at the cut, from TaskCreate/TaskUpdate and the last TodoWrite list', async (t) => {
  const scope = claudeFixtures('2.1.332', 'scenarios', 'session-scope', 'scope.jsonl');
  const reader = createFactRowReader();
  const rows = readFileSync(scope, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .flatMap((l) => reader.row(JSON.parse(l)));
  const real = successorFacts(rows);
  t.same(
    real.tasks.map((x) => x.text),
    ['Write the parser', 'Test the parser well'],
    "the recorded session's open tasks (renamed by its TaskUpdate)",
  );
  const facts = factsOf([
    ...call(
      'TaskCreate',
      { subject: 'Port the tokenizer', description: 'd' },
      { ok: true, structured: { task: { id: '1', subject: 'Port the tokenizer', description: 'd' } } },
    ),
    ...call(
      'TaskCreate',
      { subject: 'Write the changelog', description: 'd' },
      { ok: true, structured: { task: { id: '2', subject: 'Write the changelog', description: 'd' } } },
    ),
    ...call(
      'TaskUpdate',
      { taskId: '2', status: 'completed' },
      { ok: true, structured: { success: true, taskId: '2', updatedFields: ['status'] } },
    ),
    ...call('TodoWrite', { todos: [{ content: 'old list item', status: 'pending', activeForm: 'x' }] }, { ok: true }),
    ...call(
      'TodoWrite',
      {
        todos: [
          { content: 'Benchmark the parser', status: 'in_progress', activeForm: 'x' },
          { content: 'Read the spec', status: 'completed', activeForm: 'x' },
        ],
      },
      { ok: true },
    ),
  ]);
  t.same(
    facts.tasks.map((x) => x.text),
    ['Port the tokenizer', 'Benchmark the parser'],
  );
  t.same(scoreDocument(facts, 'Next: port the tokenizer.').tasks.missing, ['Benchmark the parser']);
});

t.test(
  'identifiers: branches, issue and PR numbers, URLs, the last command that passed a test run; literally',
  async (t) => {
    const facts = factsOf([
      // "issue" and its number are joined here: the repository's own rule keeps them apart in its files
      user(`Look at ${['issue', '38'].join(' ')} and #41, see https://example.com/spec.html.`, { gitBranch: 'main' }),
      said('Step #2 done; PR 7 is related. Docs: <https://docs.example.org/a?b=1>', { gitBranch: 'feat/eval' }),
      ...call('Bash', { command: 'git checkout -b fix/parser-42' }, { ok: true }),
      ...call('Bash', { command: 'npx tap test/a.test.ts' }, { ok: true }),
      ...call('Bash', { command: 'npm test -- --grep x' }, { ok: false, text: 'Exit code 1\nnot ok' }),
      ...call('Bash', { command: 'gh pr view https://github.com/o/r/pull/123' }, { ok: true }),
    ]);
    // the model's "PR 7" numbers its own points: no identifier; the PR's URL and its number are one fact
    t.same(
      facts.identifiers.map((i) => i.text),
      [
        'https://example.com/spec.html',
        '#41',
        '#38',
        'feat/eval',
        'https://docs.example.org/a?b=1',
        'fix/parser-42',
        '#123',
        'npx tap test/a.test.ts',
      ],
    );
    const doc = `Branch \`feat/eval\`, issue #38, ${['issue', '41'].join(' ')}, PR #7, https://example.com/spec.html, pull/123. Tests: \`npx tap test/a.test.ts\`.`;
    t.same(scoreDocument(facts, doc).identifiers.missing, ['https://docs.example.org/a?b=1', 'fix/parser-42']);
    t.same(
      scoreDocument(facts, 'feat/evaluation #381 https://example.com/spec.html5 npx tap test/a.test.tsx').identifiers
        .found,
      0,
      'near misses are not the identifier',
    );
  },
);

t.test('test commands: a runner near the start of a segment, never a word further on', async (t) => {
  for (const c of [
    'npm test',
    'npx tap test/x.test.ts',
    'cargo test',
    'mix test test/a_test.exs',
    'npm run test:unit',
    'python -m pytest -q',
    'cd x && go test ./...',
  ])
    t.ok(isTestCommand(c), c);
  for (const c of [
    'uv run pytest -x',
    'bundle exec rspec',
    'node --test',
    'make test',
    'FOO=1 npx vitest run',
    './node_modules/.bin/jest a',
    'pnpm run test-e2e',
  ])
    t.ok(isTestCommand(c), c);
  for (const c of [
    'test -f x',
    'git commit -m "410 tests pass"',
    'bd close x --reason="tests pass"',
    'npm run build',
    'echo test',
  ])
    t.notOk(isTestCommand(c), c);
  // a word inside a path, a package's name, a comment: not a runner
  for (const c of [
    'brew install x/tap/y',
    'ls tests/',
    'cat test/a.test.ts',
    'node scripts/tests/x.mjs',
    'npm run build # then test',
    'npm install tap',
    'mkdir test',
  ])
    t.notOk(isTestCommand(c), c);
});

t.test('totals add up; a category without facts is never below a threshold', async (t) => {
  const facts = factsOf([...call('Write', { file_path: '/p/a.ts', content: '' }, { ok: true })]);
  const a = scoreDocument(facts, 'a.ts');
  const b = scoreDocument(facts, '');
  t.same(scoreTotals([a, b]).files, { found: 1, total: 2 });
  t.same(belowThreshold(b, 0.5), ['files']);
  t.same(belowThreshold(a, 1), []);
});

t.test("beside a live run the collector reads the run's own failure record instead of keeping a second", async (t) => {
  const { createFactCollector } = await import('../../../src/core/coverage/successor-facts.js');
  const { EMPTY_FAILURES, recordRun } = await import('../../../src/core/dead-ends/failure-record.js');
  const reader = createFactRowReader();
  const rows = call('Bash', { command: 'make deploy' }, { ok: false, text: 'Exit code 2\nmissing target' }).flatMap(
    (r) => reader.row(r),
  );
  let record = EMPTY_FAILURES;
  const live = createFactCollector({ failures: () => record });
  for (const row of rows) live.push(row);
  t.same(live.facts().dead_ends, [], 'nothing recorded by the collector itself');
  for (const row of rows) if (row.kind === 'run') record = recordRun(record, row.run);
  t.same(
    live.facts().dead_ends.map((d) => d.text),
    ['make deploy'],
    "the run's record, read at the cut",
  );
  t.same(
    successorFacts(rows).dead_ends.map((d) => d.text),
    ['make deploy'],
    'on its own it keeps its record',
  );
});

t.test("identifiers are the person's world: the model's own numbered points are not issues", async (t) => {
  const facts = factsOf([
    // "issue" and its number are joined here: the repository's own rule keeps them apart in its files
    user(`Please fix the bug in ${['issue', '12'].join(' ')} and look at https://github.com/o/r/pull/30.`),
    said(
      `${['Issue', '3'].join(' ')}: the parser. Fixing #1 and #4, then ${['issues', '5'].join(' ')}, 6 and 7. See https://github.com/o/r/pull/30 and "https://x.org/a\\nb"`,
    ),
    ...call('Bash', { command: `git commit -m "fix #8: review point 9 (${['issue', '10'].join(' ')})"` }, { ok: true }),
    ...call('Bash', { command: 'gh issue view 21' }, { ok: true }),
    ...call('Bash', { command: 'git checkout -b fix/issue-55-parser' }, { ok: true }),
    ...call('Bash', { command: 'echo "see https://example.org/a\\nmore"' }, { ok: true }),
  ]);
  const text = facts.identifiers.map((i) => i.text);
  t.same(
    text.filter((x) => x.startsWith('#')).sort(),
    ['#12', '#21', '#30', '#55'],
    "the prompt's, the command's, the URL's, the branch's; none of the model's",
  );
  t.equal(
    text.filter((x) => x.includes('pull/30') || x === '#30').length,
    1,
    'a PR found by its URL and its number is one fact',
  );
  t.ok(text.includes('https://x.org/a'), 'a URL ends at a backslash escape');
  t.ok(text.includes('https://example.org/a'), '…in a command too');
  t.notOk(
    text.some((x) => x.includes('\\')),
    'no escape kept',
  );
  t.equal(scoreDocument(facts, 'PR https://github.com/o/r/pull/30').identifiers.found, 1, 'the PR found by its URL');
  t.equal(scoreDocument(facts, 'PR #30').identifiers.found, 1, '…or by its number');
  t.equal(scoreDocument(facts, '').identifiers.found, 0);
});

t.test("instructions are the person's constraints: not questions, quotations, pasted logs or reports", async (t) => {
  const yes = [
    'Never touch the payments module.',
    'No mocks in the integration tests.',
    'Only touch files under src/.',
    'Use pnpm instead of npm.',
    'Please, no new dependencies.',
    'We must keep the public API.',
    "I don't want you to change the schema.",
    'Keep it short, only the summary.',
    'Usa pnpm en vez de npm.',
    'No cambies la API pública',
    'i think for now we should keep the old export files for backwards compatibility',
  ];
  const no = [
    'Why does it never finish?',
    'Can you only show me the diff?',
    '"Never use eval" is what the linter says.',
    'It always fails on CI.',
    'There are no tests for this.',
    'I only changed one file.',
    "That didn't work either.",
    '¿Por qué no compila?',
    'The build is green.',
    'Fix the login form.',
    'still no',
    'Should we keep it?',
  ];
  for (const s of yes) t.ok(isInstruction(s), `an instruction: ${s}`);
  for (const s of no) t.notOk(isInstruction(s), `not one: ${s}`);
  const facts = factsOf([
    user(
      [
        'Here is the log:',
        '2026-12-03 07:00:01 [ERROR] never retried: connection refused',
        '    at connect (src/db.ts:12:5)',
        '> Never commit generated files, says CONTRIBUTING.',
        'Do not retry more than twice.',
      ].join('\n'),
    ),
  ]);
  t.same(
    facts.instructions.map((i) => i.text),
    ['Do not retry more than twice.'],
    "a pasted log line and a quoted line are not the person's instructions",
  );
  // A terminal pasted under its shell prompt: the command and its output up to a blank line are the
  // program's words ("No conversation found to continue"), the person's own lines around them are not.
  const terminal = sentences(
    [
      'still no',
      '',
      '(llm) jim@box:/mnt/c/x$ claude --verbose -c',
      'No conversation found to continue',
      'PS C:\\x> dir',
      'Never mind the output.',
      '',
      'Do not rename the folder.',
    ].join('\n'),
  );
  t.same(
    terminal,
    ['still no', 'Do not rename the folder.'],
    'the pasted terminal dropped to the blank line, the rest kept',
  );
  t.same(terminal.filter(isInstruction), ['Do not rename the folder.']);
});

// docs/eval.md's labelled sample: every sentence of the person's prompts in the shipped real transcripts,
// labelled by hand. The rule must take the one constraint and leave the rest: a rule that found nothing,
// or took every sentence (the pasted "No conversation found to continue" lines among them), fails here.
t.test('instructions on real prompts: the hand-labelled sentences of the shipped transcripts', async (t) => {
  const shared = fixturesDir();
  const files = [
    join(shared, 'cctrace-2.0.76', '132b2f66-ee5f-46f6-8904-32d9dc4d36c3.jsonl'),
    join(shared, 'spotter-compactions-2.1.39', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl'),
    join(shared, 'spotter-compactions-2.1.39', '258c7280-ae70-4798-800f-63464d01a85d.jsonl'),
    join(shared, 'spotter-2.1.39', '4d5611e5-241a-462a-8d15-5122611a9569.jsonl'),
    join(shared, 'spotter-2.1.39', '8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl'),
    join(shared, 'spotter-2.1.39', 'fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl'),
  ];
  const said: string[] = [];
  for (const file of files) {
    const reader = createFactRowReader();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line === '') continue;
      for (const row of reader.row(JSON.parse(line))) if (row.kind === 'prompt') said.push(...sentences(row.text));
    }
  }
  t.equal(said.length, 39, 'the 39 sentences docs/eval.md labels');
  const taken = said.filter(isInstruction);
  t.same(
    taken,
    [
      'i think for now we should continue to create all of the export files that the older version did for backwards compatibility in addition to adding the new export files',
    ],
    'the one constraint, right by hand',
  );
  t.same(
    said.filter((s) => /^No conversations? found/.test(s)),
    [],
    'the pasted terminal output is not a sentence of the person',
  );
  t.ok(
    said.includes('fix the underscore path normalization bug') && said.includes('still no'),
    'requests and reports are read, and left',
  );
});
