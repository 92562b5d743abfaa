// How long the runtime waits on claude's pty: Enter a moment after a typed line, on the run's clock.
import t from 'tap';
import { enterDueAt, ENTER_AFTER_TYPING_MS, KILL_GRACE_MS } from '../../../src/core/run/child-timing.js';

t.test('Enter goes a moment after the typed line', async (t) => {
  t.equal(enterDueAt(1_000), 1_000 + ENTER_AFTER_TYPING_MS);
  t.ok(ENTER_AFTER_TYPING_MS > 0 && ENTER_AFTER_TYPING_MS < 1_000, 'a moment, not a wait a person notices');
  t.ok(KILL_GRACE_MS >= 1_000, 'claude gets time to write its last rows before SIGKILL');
});
