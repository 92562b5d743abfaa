// What the chooser needs of the wire and the attach: "prefix s" as a key, a hello that says the client can
// show the chooser, a bye that says the person asked for it (and garbage in either refused), a run's info
// with since when it is in its state, attach's --choose, and no outcome line on the way to the chooser.
import t from 'tap';
import { parseClientMessage, parseRunInfo, parseServerMessage } from '../../src/server/wire.js';
import { createKeyRouter } from '../../src/core/screen/keymap.js';
import { attachOutcome } from '../../src/client/attach-outcome.js';
import { parseAttachArgs } from '../../src/cli/attach-main.js';
import { helpText } from '../../src/tui/help-overlay.js';

const info = {
  id: 'abc123',
  pid: 1,
  cwd: '/p',
  workbench: null,
  step: 'work',
  started: '2026-12-01T04:00:00.000Z',
  clients: 0,
  generation: 1,
  phase: 'working',
  context: 0,
  window: 200_000,
  status: null,
};

t.test('prefix s is the chooser, listed in the help', async (t) => {
  const router = createKeyRouter('\u001d');
  t.same(router.push('\u001ds', { focus: 'session', applicationCursor: false }), [
    { type: 'command', command: 'choose' },
  ]);
  t.ok(helpText('C-]', 'flower-pty').some((l) => /^ {2}s +switch to another run/.test(l)));
});

t.test('the wire: hello.chooser, bye.choose, info.since and active', async (t) => {
  t.same(parseClientMessage({ t: 'hello', version: 1, role: 'attach', chooser: true }), {
    t: 'hello',
    version: 1,
    role: 'attach',
    chooser: true,
  });
  t.equal(parseClientMessage({ t: 'hello', version: 1, role: 'attach', chooser: 'yes' }), null, 'not a boolean');
  t.same(parseServerMessage({ t: 'bye', reason: 'detached', choose: true }), {
    t: 'bye',
    reason: 'detached',
    choose: true,
  });
  t.same(
    parseServerMessage({ t: 'bye', reason: 'detached' }),
    { t: 'bye', reason: 'detached' },
    'an older server says nothing of it',
  );
  t.equal(parseServerMessage({ t: 'bye', reason: 'detached', choose: 1 }), null);
  t.same(
    parseRunInfo({ ...info, since: '2026-12-01T04:01:00.000Z', active: '2026-12-01T04:02:00.000Z' })?.since,
    '2026-12-01T04:01:00.000Z',
  );
  t.same(parseRunInfo(info)?.since, undefined, 'absent from an older server');
  t.equal(parseRunInfo({ ...info, since: 5 }), null);
  t.equal(parseRunInfo({ ...info, active: null }), null);
});

t.test('attach --choose, and the way to the chooser says nothing', async (t) => {
  t.same(parseAttachArgs(['attach', '--choose']), {
    id: undefined,
    plain: false,
    detachKey: undefined,
    workbench: undefined,
    choose: true,
  });
  t.equal(parseAttachArgs(['attach', 'abc123', '--choose']), null, 'with an id: the full command line judges it');
  t.same(attachOutcome({ kind: 'detached', run: info, why: 'choose' }), { lines: [], exitCode: 0 });
  t.match(attachOutcome({ kind: 'detached', run: info, why: 'asked' }).lines[0], /detached from run abc123/);
});
