// claudeConfigDir: the one place every command (run, report, doctor) finds a claude's config folder.
import t from 'tap';
import { join } from 'node:path';
import { claudeConfigDir } from '../../src/adapters/claude-config-dir.js';

t.test('$CLAUDE_CONFIG_DIR wins; else ~/.claude under $HOME', async (t) => {
  t.equal(claudeConfigDir({ CLAUDE_CONFIG_DIR: '/cfg', HOME: '/home/p' }), '/cfg');
  t.equal(claudeConfigDir({ HOME: '/home/p' }), join('/home/p', '.claude'));
  t.equal(
    claudeConfigDir({ CLAUDE_CONFIG_DIR: '', HOME: '/home/p' }),
    join('/home/p', '.claude'),
    'an empty variable counts as unset',
  );
});
