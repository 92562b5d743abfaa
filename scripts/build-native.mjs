// Builds the native relay (native/fast-relay.c) into dist/native/fast-relay.node with the system's C
// compiler and the Node-API headers from node-api-headers (no node-gyp, no Node source download).
// Without a compiler the run server uses Node's streams instead: this says so in one line and succeeds.
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// `--out PATH`: build it somewhere else (the relay's tests build the self-pipe variant beside the real one).
const outAt = process.argv.indexOf('--out');
const out = outAt > 0 && process.argv[outAt + 1] ? process.argv[outAt + 1] : join(root, 'dist', 'native', 'fast-relay.node');
const headers = join(root, 'node_modules', 'node-api-headers', 'include');
const cc = process.env.CC || 'cc';
mkdirSync(dirname(out), { recursive: true });
const partial = `${out}.${process.pid}.tmp`;
try {
  // Node-API symbols stay undefined here: the node binary that loads the addon provides them (macOS's
  // linker has to be told so). FLOWER_PTY_RELAY_CFLAGS adds flags (-DFLOWER_PTY_SELF_PIPE: the wake-up
  // macOS uses, built on Linux to test it).
  const platform = process.platform === 'darwin' ? ['-undefined', 'dynamic_lookup'] : [];
  const extra = (process.env.FLOWER_PTY_RELAY_CFLAGS ?? '').split(/\s+/).filter(Boolean);
  execFileSync(cc, ['-O2', '-Wall', '-Wextra', '-Werror', '-shared', '-fPIC', '-pthread', ...platform, ...extra, `-I${headers}`, join(root, 'native', 'fast-relay.c'), '-o', partial], { stdio: ['ignore', 'inherit', 'inherit'] });
  renameSync(partial, out); // a half-written addon is never loaded
} catch (error) {
  const why = error.code === 'ENOENT' ? `no C compiler (${cc})` : 'the compiler failed';
  process.stderr.write(`flower-pty: the native relay was not built (${why}); runs use Node's streams, which are slower per key\n`);
}
