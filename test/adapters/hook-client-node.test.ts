// The Node hook client (dist/cli/hook-client.js), which runs when the build had no C compiler: every test of
// hook-channel.test.ts, which drives the native client runs use, is run against it too, in a tap of its
// own (the client under test is chosen when that file loads).
import t from 'tap';
import { passesWhole } from '../helpers/nested-tap.js';

t.test('the Node hook client passes every test of the hook channel', async (t) => {
  passesWhole(t, 'test/adapters/hook-channel.test.ts', { FLOWER_PTY_TEST_HOOK_CLIENT: 'node' }, 'the Node client');
});
