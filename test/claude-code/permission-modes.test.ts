// The permission modes of the pinned release in their order of powers, and the mode the person's own
// launch starts the session in: checked against the release's own type declarations.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { launchModeOf, modesWithin, modeWithin, PERMISSION_MODES } from '../../src/claude-code/permission-modes.js';

t.test("the modes are the pinned release's, no more and no fewer", async (t) => {
  const types = readFileSync(
    new URL('../../node_modules/@anthropic-ai/claude-code/sdk-tools.d.ts', import.meta.url),
    'utf8',
  );
  const union = /mode\?: ((?:"[A-Za-z]+"(?: \| )?)+);/.exec(types)?.[1];
  t.ok(union, 'sdk-tools.d.ts still declares the mode union');
  t.same([...PERMISSION_MODES].sort(), [...(union ?? '').matchAll(/"([A-Za-z]+)"/g)].map((m) => m[1]).sort());
});

t.test('plan < default < acceptEdits < auto < bypassPermissions', async (t) => {
  const order = ['plan', 'default', 'acceptEdits', 'auto', 'bypassPermissions'];
  for (const [i, a] of order.entries()) {
    for (const [j, b] of order.entries()) t.equal(modeWithin(a, b), i <= j, `${a} within ${b}`);
  }
  t.ok(modeWithin('dontAsk', 'default'));
  t.notOk(modeWithin('dontAsk', 'plan'));
  t.notOk(modeWithin('plan', 'dontAsk'));
  t.notOk(modeWithin('unknown', 'bypassPermissions'), 'an unknown mode is within nothing');
  t.ok(modeWithin('unknown', 'unknown'), 'but is itself');
  t.ok(modeWithin('manual', 'default'), "2.1.332's other name for default");
  t.ok(modeWithin('default', 'manual'));
  t.notOk(modeWithin('acceptEdits', 'manual'));
});

const launches: { args: string[]; settings: string | null; mode: string }[] = [
  { args: [], settings: null, mode: 'default' },
  { args: [], settings: 'acceptEdits', mode: 'acceptEdits' },
  { args: ['--permission-mode', 'plan'], settings: 'acceptEdits', mode: 'plan' },
  { args: ['--permission-mode=auto', '--model', 'x'], settings: null, mode: 'auto' },
  { args: ['--permission-mode', 'plan', '--permission-mode', 'acceptEdits'], settings: null, mode: 'acceptEdits' },
  { args: ['--dangerously-skip-permissions'], settings: null, mode: 'bypassPermissions' },
  { args: ['--allow-dangerously-skip-permissions'], settings: null, mode: 'default' },
  { args: ['--permission-mode', 'manual'], settings: null, mode: 'default' },
  { args: [], settings: 'manual', mode: 'default' },
];
for (const l of launches) {
  t.test(`launch ${JSON.stringify(l.args)} with settings ${l.settings}`, async (t) => {
    t.equal(launchModeOf(l.args, l.settings), l.mode);
  });
}

t.test('the modes within a launch, its aliases with them', async (t) => {
  t.same(modesWithin('default').sort(), ['default', 'dontAsk', 'manual', 'plan']);
  t.same(modesWithin('plan'), ['plan']);
  t.same(modesWithin('everything'), ['everything'], 'an unknown launch mode keeps only itself');
});
