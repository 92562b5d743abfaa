// The native memory trim, for real, in a node of its own: the node binary's pages it drops leave the
// resident set, and the process goes on working (the loader's relocated pages were left alone: dropping
// them would crash it on its next call into the binary).
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../helpers/flower-run.js';
import { SERVER_NODE_FLAGS } from '../../src/server/start-server.js';

const ADAPTER = join(REPO, 'dist', 'adapters', 'memory-trim.js');

// Starts like a server (modules loaded, code run), trims, then works: compiles new code, loads a module,
// hashes, compresses, parses. Prints its resident file pages before and after, and what the work gave.
const CHILD = `
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const { memoryTrim } = await import(${JSON.stringify(ADAPTER)});
const fileKb = () => Number(/RssFile:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
const trim = memoryTrim();
if (!trim) { console.log(JSON.stringify({ trim: null })); process.exit(0); }
const before = fileKb();
const { advisedBytes } = trim();
const after = fileKb();
const require = createRequire(import.meta.url);
const hash = require('node:crypto').createHash('sha256').update('flower').digest('hex').slice(0, 12);
const zlib = require('node:zlib');
const round = zlib.gunzipSync(zlib.gzipSync(Buffer.from('handoff '.repeat(1000)))).length;
const made = new Function('a', 'b', 'return a * b + 1')(6, 7);
const parsed = JSON.parse(JSON.stringify({ doing: 'x'.repeat(10000), n: [1, 2, 3] })).n.length;
const http = typeof require('node:http').createServer;
console.log(JSON.stringify({ before, after, advisedBytes, hash, round, made, parsed, http }));
`;

t.test(
  'a trim drops the node binary pages it touched and the process goes on working',
  { skip: process.platform !== 'linux' && 'the trim is Linux only: elsewhere memoryTrim() is null' },
  async (t) => {
    t.ok(existsSync(join(REPO, 'dist', 'native', 'memory-trim.node')), 'built with the rest (npm run build)');
    const out = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', CHILD], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .at(-1)!,
    );
    t.not(out.trim, null, 'the trim is there on Linux');
    t.ok(
      out.advisedBytes > 10 * 1048576,
      `the binary's read-only mappings were advised (${(out.advisedBytes / 1048576).toFixed(0)} MB)`,
    );
    t.ok(out.after < out.before - 8 * 1024, `resident file pages dropped: ${out.before} → ${out.after} kB`);
    t.same(
      { hash: out.hash, round: out.round, made: out.made, parsed: out.parsed, http: out.http },
      { hash: 'c06b0cfe0cc5', round: 8000, made: 43, parsed: 3, http: 'function' },
      'new code compiled, a module loaded, hashing, compression and JSON all work after it',
    );
  },
);

// The run server runs without V8's memory reducer (its idle collections landed between a person's keys):
// the trim collects instead, in a node started with the server's own flags.
const COLLECTS = `
const { memoryTrim } = await import(${JSON.stringify(ADAPTER)});
const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
const ref = new WeakRef({ rows: 'x'.repeat(100000).split('') });
await turn();
const held = ref.deref() !== undefined;
await turn(); // a deref keeps its target until the end of the job it ran in
memoryTrim()?.();
await turn();
console.log(JSON.stringify({ held, collected: ref.deref() === undefined }));
`;

t.test(
  "a trim in the run server collects V8's garbage first (the server has no memory reducer)",
  { skip: process.platform !== 'linux' && 'the trim is Linux only: elsewhere memoryTrim() is null' },
  async (t) => {
    t.ok(SERVER_NODE_FLAGS.includes('--no-memory-reducer'), 'the server runs without the memory reducer');
    const out = JSON.parse(
      execFileSync(process.execPath, [...SERVER_NODE_FLAGS, '--input-type=module', '-e', COLLECTS], {
        encoding: 'utf8',
      })
        .trim()
        .split('\n')
        .at(-1)!,
    );
    t.same(out, { held: true, collected: true }, 'garbage left at the trim is collected by it');
  },
);
