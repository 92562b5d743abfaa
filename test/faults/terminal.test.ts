// The outer terminal: resize storms and output floods through the run server, with the fake claude:
// it keeps working. (Closing the terminal detaches: test/faults/detach.test.ts.)
import t from 'tap';
import { startFake } from './fake-flower.js';

t.test('a resize storm and an output flood: claude keeps running and answering', async (t) => {
  const f = startFake({
    t,
    script: { default: { steps: [{ flood: 20 * 1024 * 1024 }, { print: 'FLOOD-DONE\r\n' }] } },
    flowerArgs: ['--no-workbench'],
  });
  for (let i = 0; i < 300; i++) f.run.pty.resize(40 + (i % 80), 10 + (i % 40));
  f.run.pty.resize(100, 30);
  await f.run.waitFor(() => f.run.output().includes('FLOOD-DONE'), 120_000, 'the flood to pass');
  f.run.pty.write('hello after the storm\r');
  await f.run.waitFor(() => f.run.output().includes('echo: hello after the storm'), 15_000, 'an echo');
  t.notOk(f.run.isExited(), 'still running');
  t.ok(f.run.output().length > 20 * 1024 * 1024 * 0.9, 'the flood came through whole');
});
