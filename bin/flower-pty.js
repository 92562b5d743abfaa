#!/usr/bin/env node
// Trampoline: all behaviour lives in the compiled cli. A checkout after `npm ci` alone has no dist/ yet:
// say in one line what to run instead of Node's ERR_MODULE_NOT_FOUND stack.
import('../dist/cli.js').then(
  ({ main }) => main(process.argv.slice(2)),
  (error) => {
    if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli.js')) {
      process.stderr.write('flower-pty: not built yet: run `npm run build` in the flower-pty checkout first\n');
      process.exit(1);
    }
    throw error;
  },
);
