// The --notify-command examples of docs/walk-away.md, run as written through the real runner with stand-ins for
// notify-send and curl on the PATH: each gets the message as one argument, byte for byte, even a message
// that holds a command substitution and quotes, and nothing in it is executed.
import t from 'tap';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNotifier } from '../../src/adapters/notify-command.js';
import { REPO } from '../helpers/flower-run.js';

const DOC = readFileSync(join(REPO, 'docs', 'walk-away.md'), 'utf8');

// The single-quoted argument of every `flower-pty --notify-command '…'` line in docs/walk-away.md's text blocks.
function readmeCommands(): string[] {
  return [...DOC.matchAll(/^flower-pty --notify-command '([^']+)'/gm)].map((m) => m[1]!);
}

t.test('docs/walk-away.md shows the three examples', async (tt) => {
  const commands = readmeCommands();
  tt.equal(commands.length, 3);
  tt.match(commands, [/^notify-send /, /^curl .*ntfy\.sh/, /^curl .*https:\/\//]);
});

t.test('each example passes the message to its program as one intact argument', async (tt) => {
  const dir = mkdtempSync(join(tmpdir(), 'fpt-notify-readme-'));
  tt.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // Stand-ins: write each argument on its own NUL-terminated record.
  for (const program of ['notify-send', 'curl']) {
    const path = join(dir, program);
    writeFileSync(
      path,
      `#!/bin/sh\nfor a in "$@"; do printf '%s\\0' "$a"; done >> "${join(dir, 'argv')}"\nprintf '\\n' >> "${join(dir, 'argv')}"\n`,
    );
    chmodSync(path, 0o755);
  }
  const hostile = `it's "done" $(touch ${join(dir, 'pwned')}) \`touch ${join(dir, 'pwned2')}\``;
  for (const command of readmeCommands()) {
    rmSync(join(dir, 'argv'), { force: true });
    const lines: string[] = [];
    const notifier = createNotifier({
      command,
      run: 'work',
      cwd: dir,
      env: { PATH: `${dir}:/usr/bin:/bin` },
      log: (l) => lines.push(l),
    });
    notifier.notify({ name: 'crash-stop', reason: hostile }, 0);
    await notifier.drain(20_000);
    tt.same(lines, ['notify-command (crash-stop): exit 0'], `${command}: ran cleanly`);
    const argv = readFileSync(join(dir, 'argv'), 'utf8').split('\0');
    const message = `flower-pty (work): stopped after claude crashed: ${hostile}`;
    tt.ok(
      argv.some((a) => a === message || a === `crash-stop: ${message}`),
      `${command}: the message arrived as one argument`,
    );
  }
  tt.notOk(existsSync(join(dir, 'pwned')) || existsSync(join(dir, 'pwned2')), 'nothing in the message ran');
});
