#!/usr/bin/env node
// Trampoline: all behaviour lives in the compiled cli.
import('../dist/cli.js').then(({ main }) => main(process.argv.slice(2)));
