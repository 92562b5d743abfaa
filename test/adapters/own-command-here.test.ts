// The commands the demo prints to copy run as printed: from a checkout (no flower-pty on the PATH) inside
// it `npx flower-pty`, outside it the bin by its path, and with a global install's link on the PATH the
// plain name. Each answer is then run, as a person would paste it, and must print the version.
import t from 'tap';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ownCommandHere } from '../../src/adapters/own-command-here.js';
import { FLOWER_BIN, REPO } from '../helpers/flower-run.js';
import { tempRoot } from '../helpers/temp-root.js';

const root = tempRoot(t, 'flower-own-command-');
const plainPath = '/usr/local/bin:/usr/bin:/bin';

function works(command: string, cwd: string, path: string): void {
  const r = spawnSync('sh', ['-c', `${command} --version`], {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: `${join(process.execPath, '..')}:${path}`,
      HOME: root,
      npm_config_update_notifier: 'false',
      npm_config_offline: 'true',
    },
    timeout: 60_000,
  });
  t.equal(r.status, 0, `${command} runs from ${cwd}: ${r.stderr}`);
  t.match(r.stdout, /^\d+\.\d+\.\d+/);
}

t.test('in the checkout: npx flower-pty', async (t) => {
  t.equal(ownCommandHere({ PATH: plainPath }, REPO), 'npx flower-pty');
  t.equal(ownCommandHere({ PATH: plainPath }, join(REPO, 'src')), 'npx flower-pty', 'a folder inside it too');
  works('npx flower-pty', join(REPO, 'src'), plainPath);
});

t.test('elsewhere: the bin by its path', async (t) => {
  const said = ownCommandHere({ PATH: plainPath }, root);
  t.match(said, /^node \S+\/bin\/flower-pty\.js$/);
  works(said, root, plainPath);
});

t.test('a global install links flower-pty into a folder on the PATH: the plain name', async (t) => {
  const bin = join(root, 'global-bin');
  mkdirSync(bin);
  symlinkSync(FLOWER_BIN, join(bin, 'flower-pty'));
  t.equal(ownCommandHere({ PATH: `${bin}:${plainPath}` }, root), 'flower-pty');
  works('flower-pty', root, `${bin}:${plainPath}`);
  const other = join(root, 'other-bin');
  mkdirSync(other);
  symlinkSync('/bin/true', join(other, 'flower-pty'));
  t.match(
    ownCommandHere({ PATH: `${other}:${plainPath}` }, root),
    /^node /,
    'another flower-pty on the PATH is not this one',
  );
});
