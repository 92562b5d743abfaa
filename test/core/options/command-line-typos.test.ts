// The slips of the fingers the command line catches: the edit distance, the allowance per name length, a
// lone word near a subcommand, and the unknown-flag line (once per flag, as typed, the nearest flag).
import t from 'tap';
import { editDistance, nearestName, slipAllowance } from '../../../src/core/options/near-name.js';
import { commandTypo, knownFlags, unknownFlagsLine } from '../../../src/core/options/command-line-typos.js';
import { COMMANDS } from '../../../src/core/options/command-table.js';

// flower-pty as a global install types it; the line says whatever words it is given (the last test)
const OWN = 'flower-pty';

t.test('the edit distance counts a swap of neighbours as one edit', async (t) => {
  t.equal(editDistance('stauts', 'status'), 1, 'a swap');
  t.equal(editDistance('statsu', 'status'), 1);
  t.equal(editDistance('staus', 'status'), 1, 'a letter dropped');
  t.equal(editDistance('sttatus', 'status'), 1, 'a letter doubled');
  t.equal(editDistance('repot', 'report'), 1);
  t.equal(editDistance('', 'ls'), 2);
  t.equal(editDistance('kitten', 'sitting'), 3);
  t.equal(editDistance('status', 'status'), 0);
});

t.test('a short name allows one slip, a longer one two', async (t) => {
  t.equal(slipAllowance('ls'), 1);
  t.equal(slipAllowance('kill'), 1);
  t.equal(slipAllowance('status'), 2);
  t.equal(nearestName('wbe', ['web', 'ls']), 'web');
  t.equal(nearestName('deploy', ['demo', 'doctor']), null, 'three edits from demo: a word of its own');
  t.equal(nearestName('STATUS', ['status']), 'status', 'case aside');
  t.equal(nearestName('lss', ['ls', 'status']), 'ls', 'the nearest first');
});

t.test('a lone word near a subcommand is refused with the command; anything else is a prompt', async (t) => {
  t.equal(
    commandTypo('stauts', OWN),
    '"stauts" is not a command: did you mean `flower-pty status`? (a one-word prompt goes after --: flower-pty -- stauts, or in quotes with a space)',
  );
  for (const [typed, meant] of [
    ['repot', 'report'],
    ['atach', 'attach'],
    ['doctr', 'doctor'],
    ['lss', 'ls'],
    ['wbe', 'web'],
    ['demoo', 'demo'],
    ['kil', 'kill'],
    ['turst', 'trust'],
    ['replya', 'replay'],
    ['Status', 'status'],
  ]) {
    t.match(commandTypo(typed!, OWN), `did you mean \`flower-pty ${meant}\`?`, `${typed} → ${meant}`);
  }
  for (const prompt of ['stauts ', 'fix the tests', 'refactor', 'continue the refactor', 'go', 'tests', 'hello'])
    t.equal(commandTypo(prompt, OWN), null, `"${prompt}" is a prompt`);
  // a word typed for a command: a fresh session's first prompt "continue" continues nothing
  for (const [typed, meant] of [
    ['list', 'flower-pty ls'],
    ['continue', 'flower-pty --continue'],
    ['stop', 'flower-pty kill'],
    ['version', 'flower-pty --version'],
    ['uninstall', 'npm uninstall -g flower-pty'],
  ]) {
    t.equal(
      commandTypo(typed!, OWN),
      `"${typed}" is not a command: did you mean \`${meant}\`? (a one-word prompt goes after --: flower-pty -- ${typed}, or in quotes with a space)`,
      `${typed} → ${meant}`,
    );
  }
  t.equal(commandTypo('__serv', OWN), null, 'a hidden command is never suggested');
  for (const row of COMMANDS)
    if (row.summary !== false && row.name !== '$0')
      t.not(
        commandTypo(row.name, OWN),
        null,
        `${row.name} itself would be refused as a prompt (yargs runs the command first)`,
      );
});

t.test("each command's known flags: names, --no- forms of booleans, help and version", async (t) => {
  const run = knownFlags('$0');
  for (const name of ['window', 'review', 'no-notify', 'no-handoff', 'keep-auto-compact', 'help', 'version'])
    t.ok(run.includes(name), name);
  t.same(knownFlags('status').sort(), ['help', 'json', 'no-json', 'version', 'workbench'].sort());
  t.ok(knownFlags('web').includes('allow-input'));
  t.ok(knownFlags('demo').includes('keep-going'));
  t.same(
    knownFlags('ls').sort(),
    [
      'all-hosts',
      'help',
      'host',
      'json',
      'no-all-hosts',
      'no-json',
      'no-wire-version',
      'version',
      'wire-version',
    ].sort(),
  );
});

t.test('an unknown flag is named once, as typed, with the nearest flag of its command', async (t) => {
  t.equal(
    unknownFlagsLine('Unknown arguments: alow-input, alowInput', 'web', ['web', '--alow-input'], OWN),
    'unknown flag --alow-input (did you mean --allow-input?) for flower-pty web (see flower-pty web --help)',
    'no camelCase twin',
  );
  t.equal(
    unknownFlagsLine('Unknown argument: revew', '$0', ['--revew', '3'], OWN),
    'unknown flag --revew (did you mean --review?) (see flower-pty --help)',
  );
  t.equal(
    unknownFlagsLine('Unknown argument: notfy', '$0', ['--no-notfy'], OWN),
    'unknown flag --no-notfy (did you mean --no-notify?) (see flower-pty --help)',
    'a --no- form as typed',
  );
  t.equal(
    unknownFlagsLine('Unknown arguments: keepAutoCompac, keep-auto-compac', '$0', ['--keepAutoCompac'], OWN),
    'unknown flag --keepAutoCompac (did you mean --keep-auto-compact?) (see flower-pty --help)',
    'camelCase typed: shown as typed, once',
  );
  t.equal(
    unknownFlagsLine('Unknown argument: bogus', '$0', ['--bogus'], OWN),
    'unknown flag --bogus (see flower-pty --help)',
    'nothing near: no guess',
  );
  t.equal(
    unknownFlagsLine('Unknown argument: z', '$0', ['-z'], OWN),
    'unknown flag -z (see flower-pty --help)',
    'a letter: no guess',
  );
  t.equal(
    unknownFlagsLine('Unknown arguments: jsn, opne', 'report', ['report', '--jsn', '--opne'], OWN),
    'unknown flags --jsn (did you mean --json?), --opne (did you mean --open?) for flower-pty report (see flower-pty report --help)',
  );
  t.equal(
    unknownFlagsLine('Not enough non-option arguments: got 0, need at least 1', 'replay', ['replay'], OWN),
    null,
    'another message is left as it is',
  );
});

t.test(
  'a cluster of short flags typed as one word is named once, as typed (a value that looks like an ssh option)',
  async (t) => {
    t.equal(
      unknownFlagsLine(
        'Unknown arguments: o, P, r, x, y, C, m, a, n, d',
        'ls',
        ['ls', '--host', '-oProxyCommand=x'],
        OWN,
      ),
      'unknown flag -oProxyCommand=x for flower-pty ls (see flower-pty ls --help)',
    );
    t.equal(
      unknownFlagsLine('Unknown argument: z', '$0', ['-z'], OWN),
      'unknown flag -z (see flower-pty --help)',
      'a lone letter as before',
    );
  },
);

t.test('what to type is said as the person types flower-pty where they are', async (t) => {
  const own = 'node /opt/flower-pty/bin/flower-pty.js';
  t.equal(
    commandTypo('stauts', own),
    `"stauts" is not a command: did you mean \`${own} status\`? (a one-word prompt goes after --: ${own} -- stauts, or in quotes with a space)`,
  );
  t.match(commandTypo('list', 'npx flower-pty'), /did you mean `npx flower-pty ls`\?/);
  t.match(commandTypo('uninstall', own), /did you mean `npm uninstall -g flower-pty`\?/, "npm's own line stays npm's");
  t.equal(
    unknownFlagsLine('Unknown argument: jsn', 'status', ['status', '--jsn'], own),
    `unknown flag --jsn (did you mean --json?) for flower-pty status (see ${own} status --help)`,
  );
});
