// A cloned repository that ships symbolic links where the run writes: the archive folder, notes/, the
// manifest, the current document, and the events and log files its config names. Each is one line and
// exit 2 before claude starts, and nothing is written (nor read, for `--continue`) through the link.
// Below the command: an atomic write whose folder became a link, and an append whose file did, write nothing.
import t from 'tap';
import {
  existsSync,
  rmSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeClaudeBin } from './fake-claude-bin.js';
import { HANDOFF_DIR_NAME } from '../../src/adapters/notes-store.js';
import { writeFileAtomic } from '../../src/adapters/atomic-file.js';
import { appendWithoutBlocking } from '../../src/adapters/append-file.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'flower-links-')));
t.teardown(() => rmSync(root, { recursive: true, force: true }));
const flower = fakeClaudeBin(root);

let n = 0;
/** a project whose .flower holds `plant` (paths relative to .flower), and an empty folder outside it */
function project(plant: (flower: string, outside: string) => void): { repo: string; outside: string } {
  n += 1;
  const repo = join(root, `repo-${n}`);
  const outside = join(root, `outside-${n}`);
  mkdirSync(join(repo, '.flower'), { recursive: true });
  mkdirSync(outside);
  plant(join(repo, '.flower'), outside);
  return { repo, outside };
}

const cases: Array<[string, (wb: string, outside: string) => void, RegExp]> = [
  [
    'the archive folder',
    (wb, outside) => {
      mkdirSync(join(wb, 'notes', 'archive'), { recursive: true });
      symlinkSync(outside, join(wb, 'notes', 'archive', HANDOFF_DIR_NAME));
      writeFileSync(join(wb, 'notes', `${HANDOFF_DIR_NAME}-work.md`), '# an older document\n');
    },
    /archive\/交接 is a symbolic link/,
  ],
  ['notes/', (wb, outside) => symlinkSync(outside, join(wb, 'notes')), /\.flower\/notes is a symbolic link/],
  [
    'the manifest',
    (wb, outside) => symlinkSync(join(outside, 'manifest.json'), join(wb, 'manifest.json')),
    /manifest\.json is a symbolic link/,
  ],
  [
    'the current document',
    (wb, outside) => {
      mkdirSync(join(wb, 'notes'));
      symlinkSync(join(outside, 'doc.md'), join(wb, 'notes', `${HANDOFF_DIR_NAME}-work.md`));
    },
    /交接-work\.md is a symbolic link/,
  ],
  [
    'the events file the config names',
    (wb, outside) => {
      writeFileSync(join(wb, 'config.json'), JSON.stringify({ events: 'ev.jsonl' }));
      symlinkSync(join(outside, 'ev.jsonl'), join(wb, '..', 'ev.jsonl'));
    },
    /ev\.jsonl is a symbolic link/,
  ],
  [
    'the log file the config names',
    (wb, outside) => {
      writeFileSync(join(wb, 'config.json'), JSON.stringify({ log: '.flower/run.log' }));
      symlinkSync(join(outside, 'appended.log'), join(wb, 'run.log'));
    },
    /run\.log is a symbolic link/,
  ],
];

for (const [what, plant, line] of cases) {
  t.test(`${what} as a link: one line, exit 2, nothing written outside`, async (t) => {
    const { repo, outside } = project(plant);
    const r = flower(repo, ['--plain', 'go']);
    t.equal(r.code, 2, r.err);
    t.match(r.err, line);
    t.match(r.err, /^flower-pty: .*remove the link\n$/, 'one line, saying how to fix it');
    t.same(readdirSync(outside), [], 'nothing written through the link');
    t.notOk(existsSync(join(repo, '.flower', 'manifest.json')), 'no run started');
  });
}

t.test('--continue never reads a document that is a link outside the project', async (t) => {
  const { repo, outside } = project(() => undefined);
  t.equal(flower(repo, ['--plain', 'go']).code, 0, 'a first run leaves a lineage');
  // then the document is swapped for a link to a file outside, as a pulled commit could
  const doc = join(repo, '.flower', 'notes', `${HANDOFF_DIR_NAME}-work.md`);
  writeFileSync(join(outside, 'secret.txt'), 'SECRET-OUTSIDE\n');
  rmSync(doc, { force: true });
  symlinkSync(join(outside, 'secret.txt'), doc);
  const r = flower(repo, ['--plain', '--continue']);
  t.equal(r.code, 2, r.err);
  t.match(r.err, /交接-work\.md is a symbolic link/);
  t.equal(r.err.trim().split('\n').length, 1, 'one line');
  t.notMatch(r.err, /SECRET-OUTSIDE/);
  const state = join(root, 'state');
  t.notOk(
    existsSync(state) &&
      readdirSync(state).some((f) => readFileSync(join(state, f), 'utf8').includes('SECRET-OUTSIDE')),
    'no claude was told it',
  );
});

t.test('below the command: a folder or file that became a link is never written through', async (t) => {
  const wb = join(root, 'wb-direct');
  const outside = join(root, 'outside-direct');
  mkdirSync(join(wb, 'notes'), { recursive: true });
  mkdirSync(outside);
  symlinkSync(outside, join(wb, 'notes', 'archive'));
  await t.rejects(writeFileAtomic(join(wb, 'notes', 'archive', 'doc.md'), 'x', wb), /archive is a symbolic link/);
  symlinkSync(join(outside, 'appended.log'), join(wb, 'run.log'));
  t.equal(appendWithoutBlocking(join(wb, 'run.log'), 'line\n'), false, 'an append through a link writes nothing');
  t.same(readdirSync(outside), [], 'nothing outside');
});
