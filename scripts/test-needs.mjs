#!/usr/bin/env node
// What `npm test` needs from the system beside node_modules, checked before anything else runs: tmux (the
// screen tests), Chromium (the browser tests, through playwright-core), a C compiler with the C library's
// headers (the native relay, memory trim and hook client) and OpenSSH's server and client (the hosts tests). One line per missing thing, then the run goes on:
// the tests that need it fail with their own words, and the person already knows why.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

// The lines to print for what is missing; the probes are passed in so a test can try every case.
export function missingNeeds({ hasCommand, exists, compiles, env }) {
  const lines = [];
  if (!hasCommand('tmux'))
    lines.push('npm test: tmux is missing: the screen tests will fail (apt-get install -y tmux, or brew install tmux)');
  const chromium = env.FLOWER_PTY_CHROMIUM || '/usr/bin/chromium';
  if (!exists(chromium))
    lines.push(
      `npm test: no Chromium at ${chromium}: the browser tests will fail (apt-get install -y chromium, or set FLOWER_PTY_CHROMIUM to one)`,
    );
  const cc = env.CC || 'cc';
  if (!hasCommand(cc))
    lines.push(
      `npm test: no C compiler (${cc}): the native relay and hook client are not built and their tests will fail (apt-get install -y gcc libc6-dev)`,
    );
  else if (!compiles(cc))
    lines.push(
      `npm test: the C compiler (${cc}) finds no C library headers (stdlib.h, pthread.h): the native tests will fail (apt-get install -y libc6-dev)`,
    );
  // the hosts tests (test/hosts/) start OpenSSH's own server on loopback and reach it with its client
  if (!exists('/usr/sbin/sshd') || !hasCommand('ssh') || !hasCommand('ssh-keygen'))
    lines.push(
      'npm test: OpenSSH (/usr/sbin/sshd, ssh, ssh-keygen) is missing: the hosts tests will fail (apt-get install -y openssh-server openssh-client)',
    );
  return lines;
}

function hasCommand(name) {
  try {
    execFileSync('sh', ['-c', 'command -v "$1"', 'sh', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function compiles(cc) {
  try {
    execFileSync(cc, ['-fsyntax-only', '-x', 'c', '-'], {
      input: '#include <stdlib.h>\n#include <pthread.h>\nint main(void) { return 0; }\n',
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    return true;
  } catch {
    return false;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const line of missingNeeds({ hasCommand, exists: existsSync, compiles, env: process.env }))
    process.stderr.write(`${line}\n`);
}
