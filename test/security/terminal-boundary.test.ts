// The one terminal boundary (src/core/terminal-text.ts) holds for the code to come: flower-pty's lines reach
// stdout and stderr only through src/adapters/terminal-lines.ts, which sends them through it; and the
// native attach client (native/terminal-text.h) shows what the Node one shows, escape for escape, for a run's
// last words and a workbench path that carry every control a terminal acts on.
import t, { type Test } from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { spawn } from '@lydell/node-pty';
import { FLOWER_BIN, REPO } from '../helpers/flower-run.js';
import { startFakeRun } from '../helpers/wire-server.js';
import { openSocketDir } from '../../src/server/socket-dir.js';
import { terminalJson, terminalText } from '../../src/core/terminal-text.js';
import { HOSTILE_NAME as HOSTILE, HOSTILE_SEQUENCES } from '../helpers/hostile-name.js';

// The only files that write to the process's own streams, and why each may.
const WRITERS: Record<string, string> = {
  'src/adapters/terminal-lines.ts': 'the boundary itself: every line goes through terminalText',
  'src/cli/hook-client.ts': "its stdout is claude's hook answer (JSON), read by claude, never a terminal",
};
const STREAM_WRITE = /\bprocess\.(stdout|stderr)\.write\b|\bconsole\.(log|error|warn|info|debug)\b/;

t.test("no file in src writes to stdout or stderr but through the boundary's adapter", async (t) => {
  const src = join(REPO, 'src');
  const files = readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(REPO, join(e.parentPath, e.name)));
  t.ok(files.length > 100, `src is read (${files.length} files)`);
  const writers = files.filter((f) => {
    const code = readFileSync(join(REPO, f), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    return STREAM_WRITE.test(code);
  });
  t.same(writers.sort(), Object.keys(WRITERS).sort(), 'the writers are the known ones');
  t.match(
    readFileSync(join(REPO, 'src/adapters/terminal-lines.ts'), 'utf8'),
    /terminalText\(line/,
    'the adapter escapes',
  );
  t.ok(
    STREAM_WRITE.test('x; process.stderr.write(`a`)') &&
      STREAM_WRITE.test('console.log(x)') &&
      !STREAM_WRITE.test('stdout.write(x)'),
    'the pattern catches what it must',
  );
});

// The notes a face writes into claude's screen between generations, and the titles flower-pty sets: through
// the boundary too (the run server's emulator would take a note's OSC 52 for claude's own).
t.test('every note written into a screen and every title set goes through terminalText', async (t) => {
  const read = (f: string) => readFileSync(join(REPO, f), 'utf8');
  const notes = ['src/server/server-face.ts', 'src/faces/split-face.ts', 'src/faces/plain-face.ts'];
  for (const f of notes) {
    const writes = [...read(f).matchAll(/flower-pty:(?:\\u001b\[0m)? \$\{([^}]*)\}/g)].map((m) => m[1]);
    t.ok(writes.length > 0, `${f} writes a note`);
    for (const w of writes) t.match(w, /^terminalText\(/, `${f}: the note is ${w}`);
  }
  t.match(read('src/core/screen/title-filter.ts'), /\]0;\$\{terminalText\(title\)\}/, 'titleSequence');
  t.match(
    read('src/faces/split/status-line.ts'),
    /\.title = terminalText\(/,
    "the split view's title (blessed writes it as it is)",
  );
});

// every kind of control, and what must pass untouched beside them
const WORDS = `handoff written to /w/${HOSTILE}.md \u007f\u0085\u0080\u009f\u2066\u2069\u061c\u200f\u2028 漢字 🌸 café`;

// A fake run in a private socket folder whose workbench path and last words hold the sequences; the attach
// client in a real terminal; what it wrote there.
async function attachOutput(t: Test, native: boolean): Promise<string> {
  const runtime = await mkdtemp(join(tmpdir(), 'fp-boundary-'));
  t.teardown(() => rm(runtime, { recursive: true, force: true }));
  const dir = await openSocketDir({ XDG_RUNTIME_DIR: runtime });
  const run = await startFakeRun(dir, 'dddddd', {
    behaviour: 'stream',
    direct: true,
    lastWords: WORDS,
    info: { workbench: `/w/${HOSTILE}/.flower`, cwd: `/w/${HOSTILE}` },
  });
  t.teardown(() => run.close());
  // The native client alone: no node on its PATH, so a hand-off to the Node client would fail, not pass.
  const env = {
    PATH: native ? join(runtime, 'no-node') : '/usr/bin:/bin',
    HOME: runtime,
    XDG_RUNTIME_DIR: runtime,
    TERM: 'xterm-256color',
  };
  const term = native
    ? spawn(join(REPO, 'dist', 'native', 'flower-pty-attach'), [FLOWER_BIN, 'attach', 'dddddd', '--plain'], {
        cols: 100,
        rows: 30,
        env,
        cwd: runtime,
      })
    : spawn(process.execPath, [FLOWER_BIN, 'attach', 'dddddd', '--plain'], { cols: 100, rows: 30, env, cwd: runtime });
  let seen = '';
  term.onData((d) => (seen += d));
  // (a timer keeps this process up and fails the test if the client never ends)
  let timer: NodeJS.Timeout | undefined;
  const code = await new Promise<number | string>((resolve) => {
    timer = setTimeout(() => resolve('still running after 30 s'), 30_000);
    term.onExit(({ exitCode }) => resolve(exitCode));
  });
  clearTimeout(timer);
  t.equal(code, 0, `${native ? 'native' : 'node'}: ${terminalJson(seen)}`);
  return seen;
}

const linesOf = (seen: string) =>
  seen
    .split(/\r?\n/)
    .map((l) => l.replace(/\r/g, ''))
    .filter((l) => l.startsWith('flower-pty: '))
    // The Node client names the next step in the person's own command (core/options/own-command.ts); the native
    // client's words are fixed when it is compiled and say the installed `flower-pty`. The escapes are compared.
    .map((l) => l.replace(/(?:node \S*flower-pty\.js|npx flower-pty) --continue/, 'flower-pty --continue'));

t.test('the native and the Node attach clients show the same escapes, and nothing a terminal acts on', async (t) => {
  const node = await attachOutput(t, false);
  const native = await attachOutput(t, true);
  const expectedWords = `flower-pty: ${terminalText(WORDS)}`;
  const expectedLineage = `flower-pty: lineage in ${terminalText(`/w/${HOSTILE}/.flower/manifest.json`)}`;
  for (const [name, seen] of [
    ['node', node],
    ['native', native],
  ] as const) {
    const lines = linesOf(seen);
    t.ok(lines.includes(expectedWords), `${name}: the last words, escaped (${terminalJson(lines)})`);
    t.ok(
      lines.some((l) => l.startsWith(expectedLineage)),
      `${name}: the lineage line, escaped`,
    );
    const theirs = lines.join('\n');
    t.notMatch(
      theirs,
      /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/,
      `${name}: no control in its lines`,
    );
    t.notMatch(seen, HOSTILE_SEQUENCES, `${name}: no sequence of the folder name reaches the terminal`);
  }
  t.same(linesOf(native), linesOf(node), 'the same lines from both');
});
