// Builds flower-pty's native pieces with the system's C compiler (no node-gyp, no Node source
// download): the run server's relay (native/fast-relay.c → dist/native/fast-relay.node, against the
// Node-API headers from node-api-headers), its idle memory trim (native/memory-trim.c →
// dist/native/memory-trim.node) and the hook command claude runs on every hook (native/hook-client.c →
// dist/native/flower-pty-hook) and the attach client a person waits on (native/attach-client.c →
// dist/native/flower-pty-attach). Without a compiler the relay and the two clients have a Node twin that
// does the same work more slowly, and an idle server keeps its pages: this says so in one line and succeeds.
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hookDefines, attachDefines, relayDefines } from './native-defines.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cc = process.env.CC || 'cc';
// `--out PATH`: the relay alone, built somewhere else (its tests build the self-pipe variant beside the real one).
const outAt = process.argv.indexOf('--out');
const relayOut = outAt > 0 && process.argv[outAt + 1] ? process.argv[outAt + 1] : null;

// The usual hardening, for gcc and clang alike: bounds-checked libc calls where the size is known, stack
// canaries, a position-independent program (ASLR) and, on ELF, relocations read-only before main runs.
const HARDENING = [
  '-O2',
  '-D_FORTIFY_SOURCE=2',
  '-fstack-protector-strong',
  '-Wall',
  '-Wextra',
  '-Wformat=2',
  '-Werror',
];
// (macOS makes every program position-independent and its linker knows no -z: clang there would warn of
// an unused -pie, which -Werror makes an error.)
const ELF = process.platform !== 'darwin';
const LINK_HARDENING = ELF ? ['-Wl,-z,relro,-z,now', '-Wl,-z,noexecstack'] : [];
const PROGRAM = ELF ? ['-fPIE', '-pie', ...LINK_HARDENING] : [];
const LIBRARY = ['-shared', '-fPIC', ...LINK_HARDENING];

function compile(source, out, args, missing) {
  mkdirSync(dirname(out), { recursive: true });
  const partial = `${out}.${process.pid}.tmp`;
  try {
    execFileSync(cc, [...HARDENING, ...args, join(root, 'native', source), '-o', partial], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    renameSync(partial, out); // a half-written binary is never loaded or run
  } catch (error) {
    const why = error.code === 'ENOENT' ? `no C compiler (${cc})` : 'the compiler failed';
    process.stderr.write(`flower-pty: ${missing.replace('%s', why)}\n`);
  }
}

// Node-API symbols stay undefined here: the node binary that loads the addon provides them (macOS's
// linker has to be told so). FLOWER_PTY_RELAY_CFLAGS adds flags (-DFLOWER_PTY_SELF_PIPE: the wake-up
// macOS uses, built on Linux to test it).
const platform = process.platform === 'darwin' ? ['-undefined', 'dynamic_lookup'] : [];
const extra = (process.env.FLOWER_PTY_RELAY_CFLAGS ?? '').split(/\s+/).filter(Boolean);
const headers = join(root, 'node_modules', 'node-api-headers', 'include');
compile(
  'fast-relay.c',
  relayOut ?? join(root, 'dist', 'native', 'fast-relay.node'),
  [...LIBRARY, '-pthread', ...platform, ...(await relayDefines(root)), ...extra, `-I${headers}`],
  "the native relay was not built (%s); runs use Node's streams, which are slower per key",
);

if (!relayOut) {
  // What an idle run server gives back (Linux; elsewhere it builds to a no-op that says so).
  compile(
    'memory-trim.c',
    join(root, 'dist', 'native', 'memory-trim.node'),
    [...LIBRARY, ...platform, `-I${headers}`],
    'the memory trim was not built (%s); an idle run server keeps the pages it touched while starting',
  );

  // The names and limits the hook client reads, from their one home (built by tsc before this runs).
  const defines = await hookDefines(root);
  compile(
    'hook-client.c',
    join(root, 'dist', 'native', 'flower-pty-hook'),
    [...PROGRAM, ...defines],
    'the native hook client was not built (%s); claude runs the Node one, which takes ~30 ms more per hook',
  );

  // The attach client's words and numbers, from their homes in src/ (built by tsc before this runs).
  const attach = await attachDefines(root);
  compile(
    'attach-client.c',
    join(root, 'dist', 'native', 'flower-pty-attach'),
    [...PROGRAM, ...attach],
    'the native attach client was not built (%s); `flower-pty attach` runs the Node one, which waits for Node to start',
  );
}
