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
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cc = process.env.CC || 'cc';
// `--out PATH`: the relay alone, built somewhere else (its tests build the self-pipe variant beside the real one).
const outAt = process.argv.indexOf('--out');
const relayOut = outAt > 0 && process.argv[outAt + 1] ? process.argv[outAt + 1] : null;

function compile(source, out, args, missing) {
  mkdirSync(dirname(out), { recursive: true });
  const partial = `${out}.${process.pid}.tmp`;
  try {
    execFileSync(cc, ['-O2', '-Wall', '-Wextra', '-Werror', ...args, join(root, 'native', source), '-o', partial], { stdio: ['ignore', 'inherit', 'inherit'] });
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
compile('fast-relay.c', relayOut ?? join(root, 'dist', 'native', 'fast-relay.node'), ['-shared', '-fPIC', '-pthread', ...platform, ...extra, `-I${headers}`], "the native relay was not built (%s); runs use Node's streams, which are slower per key");

if (!relayOut) {
  // What an idle run server gives back (Linux; elsewhere it builds to a no-op that says so).
  compile('memory-trim.c', join(root, 'dist', 'native', 'memory-trim.node'), ['-shared', '-fPIC', ...platform, `-I${headers}`], 'the memory trim was not built (%s); an idle run server keeps the pages it touched while starting');

  // The names the hook client reads, from their one home (built by tsc before this runs).
  const { HOOK_ENV, FLOWER_ENV_PREFIX, STATUSLINE_EVENT } = await import(pathToFileURL(join(root, 'dist', 'claude-code', 'launch.js')).href);
  const names = { HOOK_ENV_SOCKET: HOOK_ENV.socket, HOOK_ENV_TOKEN: HOOK_ENV.token, HOOK_ENV_TIMEOUT_MS: HOOK_ENV.timeoutMs, HOOK_ENV_USER_STATUSLINE: HOOK_ENV.userStatusLine, FLOWER_ENV_PREFIX, STATUSLINE_EVENT };
  const defines = Object.entries(names).map(([name, value]) => `-D${name}=${JSON.stringify(value)}`);
  compile('hook-client.c', join(root, 'dist', 'native', 'flower-pty-hook'), defines, 'the native hook client was not built (%s); claude runs the Node one, which takes ~30 ms more per hook');

  // The attach client's words and numbers, from their homes in src/ (built by tsc before this runs).
  const { WIRE_VERSION } = await import(pathToFileURL(join(root, 'dist', 'server', 'wire.js')).href);
  const { EXIT } = await import(pathToFileURL(join(root, 'dist', 'core', 'exit-code.js')).href);
  const { OUTCOME_WORDS } = await import(pathToFileURL(join(root, 'dist', 'client', 'attach-outcome.js')).href);
  const { GIVE_BACK } = await import(pathToFileURL(join(root, 'dist', 'client', 'attach-client.js')).href);
  // The keys --detach-key takes, as parsePrefix reads them: C-x for each x listed (upper case).
  const { parsePrefix } = await import(pathToFileURL(join(root, 'dist', 'core', 'screen', 'keymap.js')).href);
  const detachKeys = Array.from({ length: 0x60 - 0x40 }, (_, i) => String.fromCharCode(0x40 + i)).filter((x) => 'byte' in parsePrefix(`C-${x}`)).join('');
  const attach = {
    WIRE_VERSION, EXIT_OK: EXIT.ok, EXIT_SERVER_LOST: EXIT.serverLost, EXIT_INTERRUPTED: EXIT.interrupted,
    OUTCOME_DETACHED: cString(OUTCOME_WORDS.detached), OUTCOME_LOST: cString(OUTCOME_WORDS.lost),
    OUTCOME_KILLED: cString(OUTCOME_WORDS.killed), OUTCOME_LINEAGE: cString(OUTCOME_WORDS.lineage), OUTCOME_INTERRUPTED: cString(OUTCOME_WORDS.interrupted), GIVE_BACK: cString(GIVE_BACK), DETACH_KEYS: cString(detachKeys),
  };
  compile('attach-client.c', join(root, 'dist', 'native', 'flower-pty-attach'), Object.entries(attach).map(([name, value]) => `-D${name}=${value}`), 'the native attach client was not built (%s); `flower-pty attach` runs the Node one, which waits for Node to start');
}

// A C string literal: quotes and backslashes escaped, anything outside printable ASCII as three octal digits
// (a hex escape would swallow the hex digits after it).
function cString(text) {
  let out = '"';
  for (const byte of Buffer.from(text, 'utf8')) {
    if (byte === 0x22 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return `${out}"`;
}
