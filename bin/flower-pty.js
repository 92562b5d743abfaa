#!/bin/sh
":" //; [ "$1" = attach ] && [ -z "$FLOWER_PTY_NO_NATIVE" ] && self=$(readlink -f -- "$0") && [ -x "${self%/*}/../dist/native/flower-pty-attach" ] && exec "${self%/*}/../dist/native/flower-pty-attach" "$self" "$@"; exec node "$0" "$@"
// The two lines above are for sh, and a string and a comment for Node: `flower-pty attach` goes to the
// native attach client (native/attach-client.c) when it was built, without waiting for Node to start (60 to
// 110 ms, most of what a person waits); the client hands anything it cannot take for certain to Node, as
// does everything else here. FLOWER_PTY_NO_NATIVE=1 keeps every native piece out (the Node twins run).
// Trampoline: all behaviour lives in the compiled cli. `attach` is a command a person waits on, `ls --host`
// waits on other machines (its hosts are asked before the full command line is loaded), and a
// run server (`__serve`, started by a client) should weigh little: each has a light entry of its own
// that loads nothing it does not need (no yargs, no blessed until a split view is drawn).
// Node's compile cache (Node >= 22.1) spares later starts the compiling. A checkout after `npm ci`
// alone has no dist/ yet: say in one line what to run instead of Node's ERR_MODULE_NOT_FOUND stack.
import module from 'node:module';

module.enableCompileCache?.();
const argv = process.argv.slice(2);
const serve = argv[0] === '__serve' && argv.length === 2 && !argv[1].startsWith('-');
const entry = serve ? '../dist/server/serve-command.js' : argv[0] === 'attach' ? '../dist/cli/attach-main.js' : argv[0] === 'ls' ? '../dist/cli/ls-main.js' : '../dist/cli/main.js';
import(entry).then(
  ({ main }) => main(argv),
  (error) => {
    if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(entry.slice(3))) {
      process.stderr.write('flower-pty: not built yet: run `npm run build` in the flower-pty checkout first\n');
      process.exit(1);
    }
    throw error;
  },
);
