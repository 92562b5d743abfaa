#!/usr/bin/env node
// Trampoline: all behaviour lives in the compiled cli. `attach` is a command a person waits on, and a
// run server (`__serve`, started by a client) should weigh little: each has a light entry of its own
// that loads nothing it does not need (no yargs, no blessed until a split view is drawn).
// Node's compile cache (Node >= 22.1) spares later starts the compiling. A checkout after `npm ci`
// alone has no dist/ yet: say in one line what to run instead of Node's ERR_MODULE_NOT_FOUND stack.
import module from 'node:module';

module.enableCompileCache?.();
const argv = process.argv.slice(2);
const serve = argv[0] === '__serve' && argv.length === 2 && !argv[1].startsWith('-');
const entry = serve ? '../dist/server/serve-command.js' : argv[0] === 'attach' ? '../dist/cli/attach-main.js' : '../dist/cli/main.js';
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
