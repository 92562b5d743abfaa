// The lines a run prints as the terminal lets go name the next step as it works where the person is:
// `npx flower-pty --continue` in a checkout, `flower-pty ...` after a global install (own-command.ts).
import t from 'tap';
import { attachOutcome, OUTCOME_WORDS } from '../../src/client/attach-outcome.js';

const run = {
  id: 'abc123',
  pid: 42,
  cwd: '/p',
  workbench: '/p/.flower',
  step: 'work',
  started: '2026-12-01T04:00:00.000Z',
  clients: 0,
  generation: 1,
  phase: 'working',
  context: 0,
  window: 200_000,
  status: null,
} as const;

t.test("every next step printed starts with the person's own command", async (t) => {
  const own = 'npx flower-pty';
  t.same(attachOutcome({ kind: 'detached', run, why: 'asked' }, own).lines, [
    'detached from run abc123 (it goes on); attach again with npx flower-pty attach abc123',
  ]);
  t.same(attachOutcome({ kind: 'lost', run }, own).lines, [
    'the run server abc123 is gone (pid 42 killed?); pick the lineage up with npx flower-pty --continue',
  ]);
  t.same(attachOutcome({ kind: 'ended', run, exitCode: 0, message: null, killed: false }, own).lines, [
    'lineage in /p/.flower/manifest.json; pick it up again with npx flower-pty --continue (not claude --resume)',
  ]);
  const byPath = "node '/a b/bin/flower-pty.js'";
  t.match(
    attachOutcome({ kind: 'lost', run }, byPath).lines[0],
    "pick the lineage up with node '/a b/bin/flower-pty.js' --continue",
    'a path, quoted, taken as it is ($ and all)',
  );
});

t.test('with no own command given: the words the native client prints too', async (t) => {
  t.same(attachOutcome({ kind: 'detached', run, why: 'asked' }).lines, [
    OUTCOME_WORDS.detached.replace(/%s/g, 'abc123'),
  ]);
});
