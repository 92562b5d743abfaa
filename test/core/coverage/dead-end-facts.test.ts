// Dead ends as a successor must avoid them, from Claude Code's rows through the fact reader to the score:
// a failure whose job worked later (in any form, a compound command included) is none; trivial failures
// are none; an inline script or a heredoc is one command; another tool's failure keeps its parsed target;
// a file tool's failure is kept only when the document tells of the failure; backticks alike on both sides.
import t from 'tap';
import { createFactRowReader } from '../../../src/claude-code/fact-rows.js';
import { successorFacts } from '../../../src/core/coverage/successor-facts.js';
import { scoreDocument } from '../../../src/core/coverage/coverage-score.js';
import { commandJobs, commandSegments, segmentJob } from '../../../src/core/dead-ends/command-match.js';
import { isTrivialShellFailure } from '../../../src/core/dead-ends/trivial-failure.js';

let n = 0;
// One call and its result, as Claude Code writes them.
function call(name: string, input: object, result: string, isError: boolean): object[] {
  const id = `toolu_${++n}`;
  return [
    { type: 'assistant', message: { content: [{ type: 'tool_use', id, name, input }] } },
    {
      type: 'user',
      timestamp: '2026-12-03T07:00:00.000Z',
      message: {
        content: [{ type: 'tool_result', tool_use_id: id, content: result, ...(isError ? { is_error: true } : {}) }],
      },
    },
  ];
}
const bash = (command: string, ok: boolean, out = ok ? 'done' : 'Exit code 1\nError: it broke'): object[] =>
  call('Bash', { command }, out, !ok);

function dead(rows: object[][]): string[] {
  const reader = createFactRowReader();
  return successorFacts(rows.flat().flatMap((r) => reader.row(r))).dead_ends.map((d) => d.text);
}
function facts(rows: object[][]) {
  const reader = createFactRowReader();
  return successorFacts(rows.flat().flatMap((r) => reader.row(r)));
}

t.test('a failure whose job worked later is no dead end; one that never worked is', async (t) => {
  t.same(
    dead([bash('mise run lint', false), bash('mise run lint && mise run test', true)]),
    [],
    'worked as a segment of a compound command',
  );
  t.same(
    dead([bash('git commit -m "wip"', false), bash('git commit -m "fix: the hook"', true)]),
    [],
    'the same program and subcommand, another form',
  );
  t.same(
    dead([bash('git rebase main', false), bash('git add a.ts && git rebase --continue', true)]),
    [],
    'a rebase continued',
  );
  t.same(
    dead([bash('mise run lint', false), bash('mise run test', true)]),
    ['mise run lint'],
    'another task of the same runner did not do its job',
  );
  t.same(
    dead([bash('npm run build && npm test', false), bash('npm run build', true)]),
    ['npm run build && npm test'],
    'a compound failure works only once every job worked',
  );
  t.same(
    dead([bash('npm run build && npm test', false), bash('npm run build', true), bash('npm test -- --grep x', true)]),
    [],
    '…and then it has',
  );
  t.same(
    dead([bash('cargo build', true), bash('cargo build', false)]),
    ['cargo build'],
    'a success before the failure does not count',
  );
  t.same(dead([bash('make deploy', false), bash('make deploy', false)]), ['make deploy'], 'failed twice, never worked');
});

t.test('trivial failures are not dead ends; a look that failed another way is', async (t) => {
  t.same(
    dead([
      bash('grep -rn "TODO" src', false, 'Exit code 1'),
      bash('ls missing/dir', false, "Exit code 2\nls: cannot access 'missing/dir': No such file or directory"),
      bash('cat nope.txt | head -5', false, 'Exit code 1\ncat: nope.txt: No such file or directory'),
      bash('test -f .env', false, 'Exit code 1'),
      call('Read', { file_path: '/p/gone.ts' }, '<tool_use_error>File does not exist.</tool_use_error>', true),
      call(
        'Edit',
        { file_path: '/p/a.ts', old_string: 'a', new_string: 'b' },
        '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
        true,
      ),
    ]),
    [],
    'a search that found nothing, a missing path, an edit before a read',
  );
  t.same(
    dead([bash('grep -E "(" src', false, 'Exit code 2\ngrep: Unmatched ( or \\(')]),
    ['grep -E "(" src'],
    'a bad pattern is a real failure',
  );
  t.same(
    dead([bash('npm test', false, 'Exit code 1')]),
    ['npm test'],
    'a silent failure of a command that is not a look',
  );
  t.same(
    dead([
      call(
        'Edit',
        { file_path: '/p/a.ts', old_string: 'a', new_string: 'b' },
        '<tool_use_error>String to replace not found in file.</tool_use_error>',
        true,
      ),
    ]),
    ['Edit /p/a.ts'],
    'an edit whose text was not there',
  );
  t.ok(isTrivialShellFailure('rg foo', 'Exit code 1\n'));
  t.notOk(isTrivialShellFailure('rg foo && npm test', 'Exit code 1\n'), 'anything besides a look is not trivial');
});

t.test('an inline script or a heredoc is one command: never cut at its ;', async (t) => {
  t.same(commandSegments('bun -e "const a = 1; console.log(a + 1)"'), ['bun -e "const a = 1; console.log(a + 1)"']);
  t.same(commandSegments("python -c 'import x; x.y()' && node -e 'a(); b()'"), [
    "python -c 'import x; x.y()'",
    "node -e 'a(); b()'",
  ]);
  t.same(commandSegments("cat > f.txt <<'EOF'\na; b && c\nEOF"), ["cat > f.txt <<'EOF' a; b && c EOF"]);
  t.same(commandSegments('a && b; c || d'), ['a', 'b', 'c', 'd'], 'a plain compound command is still cut');
  const f = facts([bash('bun -e "const t = 0; t + 1"', false)]);
  t.same(
    scoreDocument(f, 'We computed t + 1 and 0; then t + 1 again.').dead_ends.found,
    0,
    'a piece of the script in the document is not the command',
  );
  t.same(scoreDocument(f, 'Failed: `bun -e "const t = 0; t + 1"`').dead_ends.found, 1, 'the script whole is');
});

t.test('jobs: the program and its subcommand, wrappers and environment left out', async (t) => {
  t.same(commandJobs('cd x && FOO=1 npx vitest run a.test.ts && npm run build:prod'), [
    'vitest run a.test.ts',
    'npm run build:prod',
  ]);
  t.equal(segmentJob('gh pr create --title x'), 'gh pr create');
  t.equal(segmentJob('git commit -m "a b"'), 'git commit');
  t.not(segmentJob('git push'), segmentJob('git pull'));
});

t.test("another tool's failure keeps its parsed target, not its JSON cut short", async (t) => {
  const goal = `the build passes on every platform ${'and every locale '.repeat(12)}at the end`;
  const f = facts([
    call('Skill', { skill: 'team:release', args: 'x'.repeat(300) }, 'Unknown skill', true),
    call('Goal', { condition: goal }, 'not met', true),
  ]);
  t.same(
    f.dead_ends.map((d) => d.match.rule === 'target' && d.match.input),
    ['team:release', goal],
    'the whole target, however long',
  );
  t.equal(
    scoreDocument(f, `Skill team:release would not load. The goal "${goal}" was not met.`).dead_ends.found,
    2,
    "the transcript's own words find both",
  );
  t.equal(scoreDocument(f, 'nothing here').dead_ends.found, 0);
});

t.test('a file tool failure is kept only when the document tells of the failure near the file', async (t) => {
  const f = facts([
    call(
      'Edit',
      { file_path: '/p/src/config.ts', old_string: 'a', new_string: 'b' },
      '<tool_use_error>String to replace not found in file.</tool_use_error>',
      true,
    ),
  ]);
  const score = (doc: string): number => scoreDocument(f, doc).dead_ends.found;
  t.equal(
    score('Changed src/config.ts to read the port from the environment.'),
    0,
    'naming the file for another reason keeps nothing',
  );
  t.equal(
    score('The first edit of config.ts failed: its text had changed under it.'),
    1,
    'the file near a word of failure',
  );
  t.equal(
    score('config.ts: the string to replace was no longer in the file.'),
    1,
    "the error's own words near the file",
  );
  t.equal(
    score(`config.ts is where the port lives. ${'Lorem ipsum dolor sit amet. '.repeat(12)} The deploy failed.`),
    0,
    'a word of failure far from the file',
  );
  t.equal(score(''), 0);
});

t.test('backticks alike on both sides', async (t) => {
  const f = facts([bash('echo `date` > stamp.txt && make release', false)]);
  t.equal(
    scoreDocument(f, 'Failed: `echo `date` > stamp.txt && make release`').dead_ends.found,
    1,
    'a command with backticks is found',
  );
  t.equal(scoreDocument(f, 'Failed: `make release`').dead_ends.found, 1, 'by its segment');
  t.equal(scoreDocument(f, 'Failed: `make`').dead_ends.found, 0, 'not by one word');
});
