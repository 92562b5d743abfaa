// SIGTERM or Ctrl-C while flower-pty is still setting up (here: a slow `claude --version`) is honoured
// at once: the command ends, and no run server, no claude and no lock are left behind.
import t from 'tap';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startFake } from './fake-flower.js';

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  t.test(`${signal} during set-up ends flower-pty at once and starts nothing`, async (t) => {
    const f = startFake({
      t,
      script: { default: { steps: [{ turn: 8_000 }] } },
      prompt: 'go',
      flowerArgs: ['--window', '100k'],
      env: { FAKE_CLAUDE_VERSION_DELAY_MS: '8000' },
    });
    // the probe is running once node is up and has read the flags
    await new Promise((r) => setTimeout(r, 1_500));
    const sentAt = Date.now();
    f.run.pty.kill(signal);
    await f.run.exited;
    t.ok(Date.now() - sentAt < 3_000, `ended within 3 s of the ${signal} (took ${Date.now() - sentAt} ms)`);
    t.equal(f.spawns().length, 0, 'claude was never started');
    const sockets = join(f.runtime, 'flower-pty');
    t.same(existsSync(sockets) ? readdirSync(sockets).filter((n) => n.endsWith('.sock')) : [], [], 'no run server');
    t.notOk(existsSync(join(f.workbench, 'run.lock')), 'no workbench lock');
  });
}
