// Which exit code a run ends with: a signal that stopped it wins, as a shell reports it; `kill` does not.
import t from 'tap';
import { runExitCode, signalExitCode } from '../../src/core/exit-code.js';

t.test('a signal is 128 + its number', async (t) => {
  t.equal(signalExitCode('SIGHUP'), 129);
  t.equal(signalExitCode('SIGINT'), 130);
  t.equal(signalExitCode('SIGTERM'), 143);
  t.equal(signalExitCode('SIGUSR9'), 128, 'an unknown signal is still a signal');
});

t.test('what the run returned, unless a signal ended it', async (t) => {
  t.equal(runExitCode(null, 3), 3, 'ended by itself: its own code');
  t.equal(runExitCode('kill', 0), 0, 'flower-pty kill: the code the run returned');
  t.equal(runExitCode('SIGTERM', 0), 143, 'a signal wins over a clean end');
  t.equal(runExitCode('SIGHUP', 4), 129, 'and over a failure');
});
