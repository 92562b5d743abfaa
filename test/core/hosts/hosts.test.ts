// The pure side of hosts over ssh: which names reach ssh, HOST:ID, which hosts a command asks, and a
// remote's reply read into its runs or one line.
import t from 'tap';
import { chooseHosts, hostNameProblem, parseHostTarget } from '../../../src/core/hosts/host-name.js';
import { forwardableSocket, hostFailure, readHostLs, type HostReply } from '../../../src/core/hosts/host-answer.js';

const reply = (over: Partial<HostReply>): HostReply => ({
  code: 0,
  stdout: '',
  stderr: '',
  timedOut: false,
  waitedSeconds: 25,
  ...over,
});
const run = {
  id: 'abc123',
  pid: 7,
  cwd: '/p',
  workbench: '/p/.flower',
  phase: 'working',
  generation: 1,
  context: 1,
  window: 2,
  clients: 0,
  started: '2026-12-01T00:00:00Z',
};

t.test('host names', async (t) => {
  for (const ok of ['box', 'me@box', 'build.example.com', '10.0.0.2', 'fe80::1'])
    t.equal(hostNameProblem(ok), null, ok);
  t.match(hostNameProblem('-oProxyCommand=sh'), /starts with "-"/);
  t.match(hostNameProblem('a b'), /space or a control character/);
  t.match(hostNameProblem('a\tb'), /space or a control character/);
  t.match(hostNameProblem('a\u001bb'), /"a\\x1bb"/, 'the name shown escaped');
  t.match(hostNameProblem(''), /needs a name/);
});

t.test('HOST:ID', async (t) => {
  t.equal(parseHostTarget('abc123'), null, 'a local id');
  t.same(parseHostTarget('me@box:abc123'), { host: 'me@box', id: 'abc123' });
  t.same(parseHostTarget('fe80::1:abc123'), { host: 'fe80::1', id: 'abc123' }, 'split at the last colon');
  t.match(parseHostTarget('-oX=y:abc123'), { problem: /starts with "-"/ });
  t.match(parseHostTarget('box:'), { problem: /after the host comes a run id/ });
  t.match(parseHostTarget('box:ABC;rm'), { problem: /after the host comes a run id/ });
  t.match(parseHostTarget(':abc'), { problem: /needs a name/ });
});

t.test('which hosts', async (t) => {
  t.same(chooseHosts(['a', 'b', 'a'], [], false), { hosts: ['a', 'b'] }, 'each once, in order');
  t.same(chooseHosts(['c'], ['a', 'b'], true), { hosts: ['a', 'b', 'c'] });
  t.same(chooseHosts([], ['a'], false), { hosts: [] }, 'the configured ones only with --all-hosts');
  t.match(chooseHosts([], [], true), { problem: /no hosts are configured/ });
  t.match(chooseHosts(['-x'], [], false), { problem: /starts with "-"/ });
});

t.test('a reply read', async (t) => {
  t.same(readHostLs('a', reply({ stdout: JSON.stringify({ wire: 1, runs: [run] }) }), 1), {
    host: 'a',
    wire: 1,
    runs: [run],
    raw: { wire: 1, runs: [run] },
  });
  t.match(readHostLs('a', reply({ stdout: JSON.stringify({ wire: 2, runs: [] }) }), 1), {
    problem: /wire version 2, this one 1: update the one here/,
  });
  t.match(readHostLs('a', reply({ stdout: JSON.stringify({ wire: 0, runs: [] }) }), 1), {
    problem: /update the one there/,
  });
  t.match(
    readHostLs('a', reply({ stdout: JSON.stringify([run]) }), 1),
    { problem: /older/ },
    'a bare list: an older ls',
  );
  t.match(readHostLs('a', reply({ code: 2, stderr: 'flower-pty: unknown flag --wire-version' }), 1), {
    problem: /older/,
  });
  t.match(
    readHostLs('a', reply({ stdout: JSON.stringify({ wire: 1, runs: [{ ...run, id: '../../x' }] }) }), 1),
    { problem: /not flower-pty's list of runs/ },
    'a run of the wrong shape',
  );
  t.match(readHostLs('a', reply({ stdout: 'x'.repeat(500) }), 1), { problem: /\("x+…"\)$/ }, 'garbage cut short');
  t.same(
    readHostLs(
      'a',
      reply({ stdout: JSON.stringify({ wire: 1, runs: [{ ...run, mine: { deep: [1] } }], extra: 1 }) }),
      1,
    ),
    { host: 'a', wire: 1, runs: [run], raw: { wire: 1, runs: [run] } },
    "a field of the host's own goes no further",
  );
  t.match(
    readHostLs('a', reply({ stdout: JSON.stringify({ wire: 1, runs: [{ ...run, status: { phase: '<b>' } }] }) }), 1),
    { problem: /runs\[0\]\.status\.phase is not one of starting/ },
    'a status field of the wrong kind names itself',
  );
  t.match(readHostLs('a', reply({ stdout: JSON.stringify({ wire: 1, runs: [{ ...run, pid: '7' }] }) }), 1), {
    problem: /runs\[0\]\.pid is not a finite number/,
  });
  t.match(readHostLs('a', reply({ code: null, overLimit: 16 * 1048576 }), 1), {
    problem: 'a: answered with more than 16 MB, more than flower-pty sends; not read',
  });
  t.match(readHostLs('a', reply({ code: 255, stderr: 'ssh: Could not resolve hostname a\r\n' }), 1), {
    problem: 'a: unreachable over ssh (ssh: Could not resolve hostname a); check it with ssh a',
  });
  t.match(readHostLs('a', reply({ code: 127, stderr: 'sh: 1: flower-pty: not found' }), 1), {
    problem: /no flower-pty there/,
  });
  t.match(readHostLs('a', reply({ code: 1, stderr: 'flower-pty: internal error\n' }), 1), {
    problem: /ls failed there \(exit 1\): flower-pty: internal error/,
  });
  t.match(hostFailure('a', reply({ code: null, timedOut: true })), /no answer within 25 s/);
  t.equal(hostFailure('a', reply({ code: 7 })), null, "a remote command's own exit status is its caller's");
});

t.test('which remote socket paths are handed to ssh -L', async (t) => {
  t.ok(forwardableSocket('/run/user/1000/flower-pty/abc123.sock'));
  for (const bad of [
    'relative/abc.sock',
    '/a/b:c.sock',
    '/a b/c.sock',
    '/a/\u001b.sock',
    '/a/../etc/x.sock',
    '/a/b.txt',
    7,
    null,
  ])
    t.notOk(forwardableSocket(bad), String(bad));
});
