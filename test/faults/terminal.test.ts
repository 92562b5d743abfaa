// The outer terminal: closing it (SIGHUP to flower-pty), resize storms, output floods, with the fake
// claude: the terminal modes claude turned on are reset, exit code 129, claude goes too, and it keeps working.
import t from 'tap';
import { startFake, alive } from './fake-flower.js';

t.test('SIGHUP (the outer terminal closed): modes reset, exit 129, claude gone', async (t) => {
  const f = startFake({ t, script: { default: { steps: [{ modes: true }] } }, flowerArgs: ['--no-workbench'] });
  await f.run.waitFor(() => f.run.output().includes('modes on'), 15_000, 'modes on');
  const claude = f.spawns()[0]!.pid;
  const before = f.run.output().length;
  process.kill(f.run.pty.pid, 'SIGHUP');
  const exit = await f.run.exited;
  t.equal(exit.exitCode, 129);
  const after = f.run.output().slice(before);
  for (const [name, seq] of [['alt screen', '\u001b[?1049l'], ['mouse', '\u001b[?1000l'], ['bracketed paste', '\u001b[?2004l'], ['cursor shown', '\u001b[?25h']]) {
    t.ok(after.includes(seq!), `${name} reset`);
  }
  await f.run.waitFor(() => !alive(claude), 10_000, 'claude to exit').catch(() => undefined);
  t.notOk(alive(claude), 'claude did not outlive flower-pty');
});

t.test('a resize storm and an output flood: claude keeps running and answering', async (t) => {
  const f = startFake({ t, script: { default: { steps: [{ flood: 20 * 1024 * 1024 }, { print: 'FLOOD-DONE\r\n' }] } }, flowerArgs: ['--no-workbench'] });
  for (let i = 0; i < 300; i++) f.run.pty.resize(40 + (i % 80), 10 + (i % 40));
  f.run.pty.resize(100, 30);
  await f.run.waitFor(() => f.run.output().includes('FLOOD-DONE'), 120_000, 'the flood to pass');
  f.run.pty.write('hello after the storm\r');
  await f.run.waitFor(() => f.run.output().includes('echo: hello after the storm'), 15_000, 'an echo');
  t.notOk(f.run.isExited(), 'still running');
  t.ok(f.run.output().length > 20 * 1024 * 1024 * 0.9, 'the flood came through whole');
});
