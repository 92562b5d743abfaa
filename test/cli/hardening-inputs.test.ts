// Values a person (or a config file) can get badly wrong, each refused before anything starts with one
// line, exit 2: seconds past a day or a write timeout of 0 (Node's timers fire at once past
// 2^31-1 ms), a runaway brake set so high it never brakes.
import t, { type Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { writeFileSync, chmodSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { tempRoot } from '../helpers/temp-root.js';

const fakeClaude = (() => {
  const dir = tempRoot(t, 'flower-hard-');
  const path = join(dir, 'claude');
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, 0o755);
  return path;
})();

function flower(args: string[], opts: { env?: Record<string, string>; cwd?: string } = {}) {
  const cwd = opts.cwd ?? tempRoot(t, 'flower-hard-cwd-');
  const r = spawnSync(process.execPath, [FLOWER_BIN, ...args], {
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: tempRoot(t, 'flower-hard-home-'), ...opts.env },
    cwd,
    input: '',
    timeout: 20_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr, cwd };
}

function oneLine(t: Test, r: { code: number | null; err: string }, code: number, message: RegExp) {
  t.equal(r.code, code, 'exit code');
  t.match(r.err, message);
  t.equal(r.err.trim().split('\n').length, 1, `one line: ${r.err}`);
  t.notMatch(r.err, /\n\s+at |internal error/, 'no stack trace');
}

const bounded: Array<[string, string[], RegExp, Record<string, string>?]> = [
  [
    '--review 1e308',
    ['--review', '1e308'],
    /--review expects a number of seconds from 0 to 86400 \(a day at most\), got "1e308"/,
  ],
  [
    '--write-timeout 1e308',
    ['--write-timeout', '1e308'],
    /--write-timeout expects a number of seconds from 1 to 86400/,
  ],
  [
    '--write-timeout 0',
    ['--write-timeout', '0'],
    /--write-timeout expects a number of seconds \(at least 1: the session needs time to write its document\), got "0"/,
  ],
  ['--parked-retry 1e9', ['--parked-retry', '1e9'], /--parked-retry expects a number of seconds from 0 to 86400/],
  [
    '--coverage-check 2',
    ['--coverage-check', '2'],
    /--coverage-check expects a share from 0 to 1 like 0.5 or 50% \(0 = off\), got "2"/,
  ],
  [
    'FLOWER_PTY_WRITE_TIMEOUT=0',
    [],
    /FLOWER_PTY_WRITE_TIMEOUT expects a number of seconds \(at least 1/,
    { FLOWER_PTY_WRITE_TIMEOUT: '0' },
  ],
  [
    'FLOWER_PTY_REVIEW=1e308',
    [],
    /FLOWER_PTY_REVIEW expects a number of seconds from 0 to 86400/,
    { FLOWER_PTY_REVIEW: '1e308' },
  ],
  [
    '--max-generations 1e9',
    ['--max-generations', '1000000000'],
    /--max-generations 1000000000 is past the ceiling of 1000/,
  ],
];

for (const [name, args, message, env] of bounded) {
  t.test(`refused: ${name}`, async (t) => {
    oneLine(t, flower(['--claude', fakeClaude, ...args, 'go'], { env: env ?? {} }), 2, message);
  });
}

t.test('a config file with a review past a day is refused, naming the file', async (t) => {
  const cwd = tempRoot(t, 'flower-hard-cfg-');
  mkdirSync(join(cwd, '.flower'));
  writeFileSync(join(cwd, '.flower', 'config.json'), '{"review": 1e308}');
  oneLine(
    t,
    flower(['--claude', fakeClaude, 'go'], { cwd }),
    2,
    /config\.json: "review" expects a number of seconds from 0 to 86400/,
  );
});

t.test("--workbench '' is refused: it would put the lineage in the project folder itself", async (t) => {
  const r = flower(['--claude', fakeClaude, '--workbench', '', 'go']);
  oneLine(t, r, 2, /--workbench needs a folder, got an empty value .*--no-workbench/);
  t.notOk(
    existsSync(join(r.cwd, 'notes')) || existsSync(join(r.cwd, 'manifest.json')),
    'nothing written in the project folder',
  );
  oneLine(
    t,
    flower(['--claude', fakeClaude, '--workbench', '  ', 'go']),
    2,
    /--workbench needs a folder, got an empty value/,
  );
});

t.test('a config file with a byte-order mark is read; a bad one shows what it holds visibly', async (t) => {
  const cwd = tempRoot(t, 'flower-hard-bom-');
  mkdirSync(join(cwd, '.flower'));
  writeFileSync(join(cwd, '.flower', 'config.json'), '\uFEFF{"review": 1e308}');
  oneLine(
    t,
    flower(['--claude', fakeClaude, 'go'], { cwd }),
    2,
    /config\.json: "review" expects a number of seconds from 0 to 86400/,
  );
  writeFileSync(join(cwd, '.flower', 'config.json'), '{"review":\u200b 3}');
  const r = flower(['--claude', fakeClaude, 'go'], { cwd });
  oneLine(t, r, 2, /config\.json: not valid JSON \(.*\\u200b.*\); fix or remove the file/);
  t.notMatch(r.err, /[\u200b\ufeff]/, 'no invisible character in the line');
});
