// A fleet of "hosts" for the tests and the benchmark of flower-pty over ssh, all this machine: a real OpenSSH server
// (/usr/sbin/sshd) on a free loopback port with a throwaway host key, and one key per host made for the
// test, whose authorized_keys line runs the command in that host's own HOME, XDG_RUNTIME_DIR and PATH (so
// each host has its own runs and its own flower-pty: the real one, an older fake, a garbage printer, none).
// Besides: a host whose key is refused, one whose port is closed, one that accepts and never speaks. The
// client side is one ssh config file (FLOWER_PTY_SSH_CONFIG, passed as -F): nothing touches ~/.ssh.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FLOWER_BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'flower-pty.js');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** the kinds of host: 'real' (this checkout's flower-pty), 'older', 'other-wire', 'garbage', 'none', or { script }:
 * a flower-pty of the test's own making (a hostile host), run with the host's HOME */

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  await new Promise((resolve) => server.close(() => resolve()));
  return port;
}

const FAKES = {
  // an older flower-pty: yargs refuses the flag it does not know
  older: `#!/bin/sh\necho 'flower-pty: unknown flag --wire-version (ls takes --json)' >&2\nexit 2\n`,
  'other-wire': `#!/bin/sh\necho '{"wire":0,"runs":[]}'\n`,
  garbage: `#!/bin/sh\nprintf 'Welcome to box!\\033[31m motd\\n'\n`,
};

/** starts sshd and the odd listeners; everything is ended at teardown */
export async function startFleet(t, root, kinds) {
  const dir = join(root, 'ssh');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const keygen = (file) =>
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'flower-pty-test', '-f', file]);
  keygen(join(dir, 'host_key'));
  const port = await freePort();
  const nodeDir = dirname(process.execPath);
  const hosts = {};
  const authorized = [];
  const clientHosts = [];
  const known = `[127.0.0.1]:${port} ${readFileSync(join(dir, 'host_key.pub'), 'utf8').split(' ').slice(0, 2).join(' ')}`;
  writeFileSync(join(dir, 'known_hosts'), known + '\n');
  const common = (key) => [
    `  User root`,
    `  IdentityFile ${key}`,
    `  IdentitiesOnly yes`,
    `  IdentityAgent none`,
    `  UserKnownHostsFile ${join(dir, 'known_hosts')}`,
    `  GlobalKnownHostsFile /dev/null`,
    `  StrictHostKeyChecking yes`,
    `  LogLevel ERROR`,
  ];
  for (const [name, kind] of Object.entries(kinds)) {
    const home = join(root, 'hosts', name);
    const runtime = join(home, 'run');
    mkdirSync(join(home, 'bin'), { recursive: true });
    mkdirSync(runtime, { recursive: true, mode: 0o700 });
    if (kind === 'real') symlinkSync(FLOWER_BIN, join(home, 'bin', 'flower-pty'));
    else if (kind !== 'none') {
      writeFileSync(join(home, 'bin', 'flower-pty'), typeof kind === 'object' ? kind.script : FAKES[kind]);
      chmodSync(join(home, 'bin', 'flower-pty'), 0o755);
    }
    const enter = join(home, 'enter.sh');
    writeFileSync(
      enter,
      [
        '#!/bin/sh',
        `export HOME='${home}' XDG_RUNTIME_DIR='${runtime}' XDG_CONFIG_HOME='${join(home, 'config')}' PATH='${join(home, 'bin')}:${nodeDir}:/usr/bin:/bin'`,
        `cd '${home}'`,
        'exec /bin/sh -c "$SSH_ORIGINAL_COMMAND"',
        '',
      ].join('\n'),
    );
    chmodSync(enter, 0o755);
    const key = join(dir, `${name}_key`);
    keygen(key);
    authorized.push(`command="${enter}" ${readFileSync(key + '.pub', 'utf8').trim()}`);
    clientHosts.push(`Host ${name}`, `  HostName 127.0.0.1`, `  Port ${port}`, ...common(key));
    hosts[name] = { name, home, runtime };
  }
  // a key sshd does not know: refused
  keygen(join(dir, 'stranger_key'));
  clientHosts.push('Host refusing', '  HostName 127.0.0.1', `  Port ${port}`, ...common(join(dir, 'stranger_key')));
  // a port nothing listens on
  clientHosts.push(
    'Host closed',
    '  HostName 127.0.0.1',
    `  Port ${await freePort()}`,
    ...common(join(dir, 'stranger_key')),
  );
  // a listener that accepts and never says its banner
  const sockets = new Set();
  const hanging = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await new Promise((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  clientHosts.push(
    'Host hanging',
    '  HostName 127.0.0.1',
    `  Port ${hanging.address().port}`,
    ...common(join(dir, 'stranger_key')),
  );
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    hanging.close();
  });

  writeFileSync(join(dir, 'authorized_keys'), authorized.join('\n') + '\n');
  const sshdConfig = join(dir, 'sshd_config');
  writeFileSync(
    sshdConfig,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_key')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      'PermitRootLogin yes',
      'StrictModes no',
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'AllowStreamLocalForwarding yes',
      'AllowTcpForwarding yes',
      'PrintMotd no',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  const config = join(dir, 'ssh_config');
  writeFileSync(config, clientHosts.join('\n') + '\n');
  const sshd = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', sshdConfig], { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  sshd.stderr.on('data', (c) => (said += c.toString()));
  const end = () => {
    if (sshd.exitCode === null && sshd.pid !== undefined) sshd.kill('SIGTERM');
  };
  t.teardown(end);
  // a test file that dies before its teardown must not leave a listening sshd behind
  process.once('exit', end);
  // ready when it answers with its banner
  const deadline = performance.now() + 15_000;
  for (;;) {
    if (sshd.exitCode !== null) throw new Error(`sshd ended: ${said}`);
    const banner = await new Promise((resolve) => {
      const c = createConnection(port, '127.0.0.1');
      c.once('data', () => (c.destroy(), resolve(true)));
      c.once('error', () => resolve(false));
    });
    if (banner) break;
    if (performance.now() > deadline) throw new Error(`sshd did not listen: ${said}`);
    await sleep(50);
  }
  return { config, hosts, port, env: { ...process.env, FLOWER_PTY_SSH_CONFIG: config } };
}
