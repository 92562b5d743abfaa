// Exact matching of commands, flags and paths: tables of what normalises to the same command, what
// counts as a flag or a path, what a document's prose mentions, and the near misses that must not match.
import t from 'tap';
import {
  commandMatches,
  commandPaths,
  commandSegments,
  longFlags,
  mentionsCommand,
  normaliseCommand,
  normalisePath,
  spanPattern,
} from '../../../src/core/dead-ends/command-match.js';

t.test('normalisation: spacing, a leading cd, output trimming and ./ are forgotten; nothing else', async (t) => {
  const same: Array<[string, string]> = [
    ['npm   run  build', 'npm run build'],
    ['  npm run build\n', 'npm run build'],
    ['cd /work/app && npm run build', 'npm run build'],
    ['cd "/my dir" && cd sub && npm run build', 'npm run build'],
    ['npm run build 2>&1', 'npm run build'],
    ['npm run build 2>&1 | tail -20', 'npm run build'],
    ['npm run build | head -n 50', 'npm run build'],
    ['node ./scripts/x.mjs', 'node scripts/x.mjs'],
    ['cat "./a b.txt"', 'cat "a b.txt"'],
    ['npx tap \\\n  test/a.test.ts', 'npx tap test/a.test.ts'],
  ];
  for (const [raw, want] of same) t.equal(normaliseCommand(raw), want, JSON.stringify(raw));
  const different: Array<[string, string]> = [
    ['npm run build', 'npm run build:prod'],
    ['npm test', 'npm test -- --grep x'],
    ['npm run build | grep error', 'npm run build'],
    ['git push', 'git push -u origin main'],
  ];
  for (const [a, b] of different) t.not(normaliseCommand(a), normaliseCommand(b), `${a} ≠ ${b}`);
  t.same(commandSegments('cd x && npm ci && npm test; echo done'), ['npm ci', 'npm test', 'echo done']);
});

t.test(
  'flags: long ones only, without a value; paths: tokens with a slash or a file name with an extension',
  async (t) => {
    t.same(longFlags('node --max-old-space-size=4096 --test -x a.js'), ['--max-old-space-size', '--test']);
    t.same(longFlags('npm install --legacy-peer-deps --legacy-peer-deps'), ['--legacy-peer-deps'], 'once each');
    t.same(commandPaths('cat ./src/a.ts README.md https://x.org/a.md --out=dist/x -v > out/log.txt'), [
      'src/a.ts',
      'README.md',
      'out/log.txt',
    ]);
    t.same(commandPaths('echo hello world 1.5'), [], 'words and numbers are not paths');
    t.equal(normalisePath('./src/'), 'src');
    t.equal(normalisePath('"./a b/c"'), 'a b/c');
  },
);

t.test(
  'a document mentions a failed command by the command, a long flag or a path; never by a near miss',
  async (t) => {
    const rows: Array<[string, string, boolean]> = [
      ['Tried `npm run build` twice: it needs node 22.', 'cd app && npm run build 2>&1', true],
      ['npm   run build fails on node 20', 'npm run build', true],
      ['the --legacy-peer-deps flag breaks the lock file', 'npm install --legacy-peer-deps', true],
      ['--legacy-peer-deps-x is something else', 'npm install --legacy-peer-deps', false],
      ['src/tail.ts cannot be split', 'npx tsc src/tail.ts --noEmit', true],
      ['the tail module (tail.ts.bak) is gone', 'npx tsc src/tail.ts', false],
      ['mytail.ts is fine', 'npx tsc src/tail.ts', false],
      ['npm run build:prod works', 'npm run build', false],
      ['npm test passes', 'npm run test', false],
      ['nothing about it', 'make check', false],
    ];
    for (const [text, command, want] of rows)
      t.equal(
        mentionsCommand(text, command),
        want,
        `${JSON.stringify(text)} ${want ? 'names' : 'does not name'} ${command}`,
      );
  },
);

t.test("a dead end's span as a pattern, and the calls that repeat it", async (t) => {
  t.same(spanPattern('--watch'), { kind: 'flag', flag: '--watch' });
  t.same(spanPattern('$ npm  run build'), { kind: 'command', command: 'npm run build' });
  t.equal(spanPattern('tail.ts'), null, 'one word is a name, not a call');
  const rows: Array<[string, string, boolean]> = [
    ['npm run build', 'npm run build', true],
    ['npm run build', 'cd /w && npm run build 2>&1 | tail -5', true],
    ['npm run build', 'npm ci && npm run build', true],
    ['npm run build', 'npm run build:prod', false],
    ['npm run build', 'npm run build -- --verbose', false],
    ['--watch', 'npx jest --watch', true],
    ['--watch', 'npx jest --watchAll', false],
    ['--watch', 'npx jest --watch=false', true],
    ['node scripts/x.mjs', 'node ./scripts/x.mjs', true],
    ['node scripts/x.mjs', 'node scripts/x.mjs.bak', false],
  ];
  for (const [span, call, want] of rows)
    t.equal(commandMatches(call, spanPattern(span)!), want, `${call} ${want ? 'repeats' : 'does not repeat'} ${span}`);
});
