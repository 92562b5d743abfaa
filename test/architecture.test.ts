// The core stays pure: nothing under src/core imports node:*, a pty, blessed, chokidar or any package.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join, dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const coreDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'core');
const importRe =
  /(?:^|\s)(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

// Its folders too (the decision's reducers live in core/decide/): an import may climb only as far as core itself.
t.test('src/core imports only relative core modules', async (t) => {
  const files = readdirSync(coreDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => relative(coreDir, join(e.parentPath, e.name)));
  t.ok(files.length >= 5, 'the core has its files');
  t.ok(
    files.some((f) => f.startsWith('decide/')),
    'the reducers in core/decide/ are read',
  );
  for (const file of files) {
    const text = readFileSync(join(coreDir, file), 'utf8');
    for (const m of text.matchAll(importRe)) {
      const spec = m[1] ?? m[2] ?? m[3] ?? '';
      const inCore = !relative(coreDir, resolve(coreDir, dirname(file), spec)).startsWith('..');
      t.ok(spec.startsWith('.') && inCore, `${file} imports "${spec}"`);
    }
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    t.notMatch(code, /\bprocess\.|\brequire\(|Date\.now\(\)/, `${file} reaches no process, require or clock`);
  }
});

// Core's own folders stand in layers as src/'s do, lowest first: a core file imports from its own folder, the
// folders below it and core's top-level files (exit-code, errors, one-line, ...), never from a folder above.
const CORE_LAYERS: readonly string[] = [
  'meter', // the transcript read and the context measured; token counts as read and typed
  'document', // the handoff document: its shape, parse, render, the Scene's facts, what a session set up
  'dead-ends', // what failed in the main thread, and a successor that repeats it
  'lineage', // the manifest, what is frozen and seeded, the request and seed prompts, where a session is
  'coverage', // the scorer: the facts a successor needs and how many a document carries (live at every freeze)
  'eval', // the offline eval commands' results and pages (eval compaction, eval fork)
  'screen', // what the terminal faces draw
  'picture', // the one picture of a run (its state in words, needs, meter) that every list of runs reads
  'server', // what a run server says of itself, pure
  'hosts', // the other machines a person named: their names and answers
  'web', // what the web face decides
  'options', // the command line as data
  'run', // the run as one value and its vocabulary
  'chooser', // the terminal chooser of runs: its rows and its keys
  'report', // the lineage's report page
  'decide', // decide(run, input): every reducer, on top of all of it
];
// Upward imports held for now, each named with why; none today (the pages' shared chrome is core/page-chrome.ts).
const CORE_UPWARD_ALLOWED: readonly string[] = [];

function coreRank(file: string): number {
  const folder = file.includes('/') ? file.split('/')[0]! : '';
  return folder === '' ? -1 : CORE_LAYERS.indexOf(folder);
}

t.test("core's folders stand in layers: no import from a lower folder to a higher one", async (t) => {
  const files = readdirSync(coreDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => relative(coreDir, join(e.parentPath, e.name)));
  const folders = new Set(files.filter((f) => f.includes('/')).map((f) => f.split('/')[0]!));
  t.same(
    [...folders].filter((f) => !CORE_LAYERS.includes(f)),
    [],
    'every folder of src/core has its place in CORE_LAYERS',
  );
  const upward: string[] = [];
  for (const file of files) {
    for (const m of readFileSync(join(coreDir, file), 'utf8').matchAll(importRe)) {
      const spec = m[1] ?? m[2] ?? m[3] ?? '';
      if (!spec.startsWith('.')) continue;
      const to = relative(coreDir, resolve(coreDir, dirname(file), spec)).replace(/\.js$/, '.ts');
      if (coreRank(to) > coreRank(file)) upward.push(`${file} imports ${to}`);
    }
  }
  t.same(
    upward.filter((u) => !CORE_UPWARD_ALLOWED.includes(u)),
    [],
    'no import up the core layers',
  );
  t.same(
    CORE_UPWARD_ALLOWED.filter((a) => !upward.includes(a)),
    [],
    'every allowance is still needed (remove the ones that are not)',
  );
  t.ok(
    coreRank('options/option-value.ts') > coreRank('meter/token-format.ts') &&
      coreRank('exit-code.ts') < coreRank('meter/jsonl.ts'),
    'the ranks order what they must',
  );
  t.ok(
    coreRank('run/policy.ts') > coreRank('options/option-value.ts'),
    'so run/policy.ts would be an import up from options/',
  );
});

t.test('the checker itself catches a forbidden import', async (t) => {
  const sample = "import { spawn } from 'node:child_process';\nimport blessed from 'blessed';\n";
  const specs = [...sample.matchAll(importRe)].map((m) => m[1] ?? m[2] ?? m[3]);
  t.same(specs, ['node:child_process', 'blessed']);
});

// The dialect (src/claude-code) is pure too, but for probe.ts, its one adapter (it runs `claude --version`):
// its files import only each other and the pure core.
t.test('src/claude-code is pure but for probe.ts', async (t) => {
  const dialectDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'claude-code');
  const files = readdirSync(dialectDir).filter((f) => f.endsWith('.ts') && f !== 'probe.ts');
  t.ok(files.length >= 5, 'the dialect has its pure files');
  for (const file of files) {
    const text = readFileSync(join(dialectDir, file), 'utf8');
    for (const m of text.matchAll(importRe)) {
      const spec = m[1] ?? m[2] ?? m[3] ?? '';
      t.ok(
        (spec.startsWith('./') && !spec.includes('..')) || /^\.\.\/core\/([\w-]+\/)*[\w-]+\.js$/.test(spec),
        `${file} imports "${spec}"`,
      );
    }
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    t.notMatch(code, /\bprocess\.|\brequire\(|Date\.now\(\)/, `${file} reaches no process, require or clock`);
  }
});

// Every comment and doc points at something in the repository: the facts the code relies on are written in
// docs/ (claude-code.md, libraries.md), never cited from notes that live outside it. The names are
// spelled in pieces so this file does not match itself.
const repoDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUTSIDE = [
  ['..', 'shared'].join('/'),
  ['', 'work', 'shared'].join('/'),
  ['claude-code-facts', 'md'].join('.'),
  ['stack', 'md'].join('.'),
];
const outsideRe = new RegExp(OUTSIDE.map((s) => `(?<![\\w-])${s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`).join('|'));
function filesUnder(dir: string): string[] {
  return readdirSync(join(repoDir, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !/\.(png|node|o)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

t.test('no file points outside the repository', async (t) => {
  const files = [...['src', 'test', 'scripts', 'native', 'docs'].flatMap(filesUnder), join(repoDir, 'README.md')];
  t.ok(files.length > 100, `the tree is read (${files.length} files)`);
  const offenders = files
    .filter((f) => outsideRe.test(readFileSync(f, 'utf8')))
    .map((f) => f.slice(repoDir.length + 1));
  t.same(offenders, [], 'no mention of notes outside the repository');
  t.ok(
    outsideRe.test(`see ${OUTSIDE[3]} §3`) && outsideRe.test(`in ${OUTSIDE[0]}/x`) && !outsideRe.test('callstack.md'),
    'the pattern catches what it must',
  );
});

// An issue's number points at nothing a reader of the repository can open: a comment states the fact instead.
// The pattern is spelled in pieces so this file does not match itself.
const issueRe = new RegExp(`\\b${['issues?', '\\d+'].join(' ')}`, 'i');
t.test('no comment or doc points at an issue by its number', async (t) => {
  const files = [
    ...['src', 'test', 'scripts', 'native', 'docs'].flatMap(filesUnder),
    join(repoDir, 'README.md'),
  ].filter((f) => !f.endsWith('.jsonl'));
  const offenders = files.filter((f) => issueRe.test(readFileSync(f, 'utf8'))).map((f) => f.slice(repoDir.length + 1));
  t.same(offenders, [], 'no issue numbers');
  t.ok(
    issueRe.test(['see', 'issue', '18'].join(' ')) && !issueRe.test('an issue of size'),
    'the pattern catches what it must',
  );
});

// The layers, lowest first, each exactly one folder of src/. A file imports from its own layer and the layers
// below it, never from one above: the house is read bottom up, and a face or a command can be added without the
// lower layers knowing. There are no exceptions: a file that belongs to a layer lives in its folder.
const srcDir = join(repoDir, 'src');
const LAYERS: readonly string[] = [
  'core', // every decision, pure (the run, the meter, the document, the lineage, the options, the screen, ...)
  'claude-code', // the dialect: everything tied to a Claude Code release
  'adapters', // I/O, one library's quirks each
  'mock', // the scripted Messages API and the sandbox a real claude runs in (tests, the demo, benchmarks)
  'runtime', // the event loop that moves events into core and effects out, and its ports
  'tui', // blessed's widgets and the painter of claude's pane
  'faces', // where a run is shown: the plain pass-through and the split view
  'demo', // the demo's narration around a real run
  'server', // the run server (one per run) and its clients' wire
  'client', // what `attach` runs against a run server
  'web', // the web face's server
  'commands', // one file per subcommand
  'cli', // the entries: the command line, attach's light entry, the Node hook client
];

function rankOf(file: string): number {
  return LAYERS.indexOf(file.split('/')[0]!);
}

function sourceFiles(): string[] {
  return readdirSync(srcDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => relative(srcDir, join(e.parentPath, e.name)));
}

// The src-relative file an import names, or null for a package or node:*.
function target(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  return relative(srcDir, resolve(srcDir, dirname(from), spec)).replace(/\.js$/, '.ts');
}

t.test('every source file has a layer, and no import goes up', async (t) => {
  const files = sourceFiles();
  t.ok(files.length > 100, `the sources are read (${files.length})`);
  t.same(
    files.filter((f) => rankOf(f) < 0),
    [],
    'every file is placed in a layer',
  );
  const upward: string[] = [];
  for (const file of files) {
    for (const m of readFileSync(join(srcDir, file), 'utf8').matchAll(importRe)) {
      const to = target(file, m[1] ?? m[2] ?? m[3] ?? '');
      if (to !== null && rankOf(to) > rankOf(file))
        upward.push(`${file} (${LAYERS[rankOf(file)]}) imports ${to} (${LAYERS[rankOf(to)]})`);
    }
  }
  t.same(upward, [], 'no import against the ranks');
});

t.test('the rank check itself refuses an upward import', async (t) => {
  t.ok(rankOf('adapters/x.ts') < rankOf('server/run-registry.ts'), 'an adapter ranks below the server');
  t.equal(rankOf('runtime/face.ts'), rankOf('runtime/run-loop.ts'), 'the face port ranks with the runtime');
  t.equal(rankOf('supervisor.ts'), -1, 'a file outside every layer folder has no rank');
  t.ok(rankOf('faces/split-face.ts') > rankOf('runtime/run-loop.ts'), 'a face ranks above it');
  t.equal(target('commands/attach.ts', './run.js'), 'commands/run.ts');
});

// No import circle anywhere under src/ (type imports count: a circle of types is a circle a reader walks too).
// Tarjan's strongly connected components over the import graph: a component of more than one file, or a file
// importing itself, is a circle.
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

t.test('no import circle under src/', async (t) => {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles()) {
    const to = [...readFileSync(join(srcDir, file), 'utf8').matchAll(importRe)]
      .map((m) => target(file, m[1] ?? m[2] ?? m[3] ?? ''))
      .filter((x): x is string => x !== null);
    graph.set(file, to);
  }
  t.ok(graph.size > 100, `the import graph is read (${graph.size} files)`);
  t.same(circles(graph), [], 'no file reaches itself through its imports');
  t.same(
    circles(
      new Map([
        ['a.ts', ['b.ts']],
        ['b.ts', ['c.ts']],
        ['c.ts', ['a.ts']],
        ['d.ts', ['a.ts']],
      ]),
    ),
    [['a.ts', 'b.ts', 'c.ts']],
    'the check finds a circle of three',
  );
  t.same(circles(new Map([['a.ts', ['a.ts']]])), [['a.ts']], 'and a file importing itself');
});

// Attaching loads no split view unless it draws one: the attach command's static imports (the ones loaded
// before it runs; `import type` is erased and import() is lazy) never reach blessed.
const staticImportRe = /^(?:import|export)\s+(?!type\s)[^'"]*?from\s+['"]([^'"]+)['"]|^import\s+['"]([^'"]+)['"]/gm;
function staticClosure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const m of readFileSync(join(srcDir, file), 'utf8').matchAll(staticImportRe)) {
      const spec = m[1] ?? m[2] ?? '';
      const to = target(file, spec);
      if (to === null) packages.add(spec);
      else todo.push(to);
    }
  }
  return { files, packages };
}

// blessed is required part by part, by path, in tui/blessed-parts.ts: that file stands for the package.
const loadsBlessed = (closure: { files: Set<string>; packages: Set<string> }) =>
  closure.packages.has('blessed') || closure.files.has('tui/blessed-parts.ts');

t.test('the attach command does not load the split view or the run command', async (t) => {
  const closure = staticClosure('commands/attach.ts');
  t.ok(closure.files.has('client/attach-client.ts'), 'the attach client is loaded');
  t.notOk(loadsBlessed(closure), 'blessed is not');
  t.notOk(closure.files.has('commands/run.ts'), 'nor the run command');
  t.ok(loadsBlessed(staticClosure('faces/split-face.ts')), 'the closure does see blessed where it is');
});

// One screen per run: the web face is painted from the run server's emulator (a `repaint` on its watcher
// connection), so the web server loads none of its own and parses none of claude's output.
t.test('the web command loads no emulator', async (t) => {
  const { files, packages } = staticClosure('commands/web.ts');
  t.ok(files.has('web/run-feed.ts'), 'the run feed is loaded');
  t.notOk(
    [...packages].some((p) => p.startsWith('@xterm/')),
    'no @xterm package is',
  );
  t.notOk(
    files.has('server/screen-model.ts') || files.has('adapters/emulator.ts'),
    'nor the screen model or the emulator adapter',
  );
  t.ok(
    staticClosure('server/run-server.ts').packages.has('@xterm/headless') ||
      staticClosure('server/screen-model.ts').files.has('adapters/emulator.ts'),
    'the closure does see the emulator where it is',
  );
});

// The compiler guards core: its own settings have no Node types and no DOM, and the typecheck runs them.
t.test('core has its own compiler settings, with no Node types, run by the typecheck', async (t) => {
  const config = JSON.parse(readFileSync(join(srcDir, 'core', 'tsconfig.json'), 'utf8')) as {
    compilerOptions: { types?: string[]; lib?: string[] };
  };
  t.same(config.compilerOptions.types, [], 'no @types');
  t.notOk(
    (config.compilerOptions.lib ?? []).some((l) => /dom/i.test(l)),
    'no DOM',
  );
  const pkg = JSON.parse(readFileSync(join(repoDir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  t.match(pkg.scripts.typecheck, /tsc -p src\/core\/tsconfig\.json/);
});

// The dialect translates Claude Code's rows and payloads into core's own words: core names none of their fields
// and no release (those facts live in src/claude-code/ and docs/claude-code.md).
const CLAUDE_FIELDS = [
  'isSidechain',
  'toolUseResult',
  'tool_use_id',
  'last_assistant_message',
  'stop_hook_active',
  'hook_event_name',
  'parentUuid',
  'tool_input',
  'tool_response',
];
t.test('core names no Claude Code field and no release', async (t) => {
  const files = readdirSync(coreDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(coreDir, join(e.parentPath, e.name)));
  const fieldRe = new RegExp(`\\b(${CLAUDE_FIELDS.join('|')})\\b`);
  t.ok(fieldRe.test('row.isSidechain') && !fieldRe.test('subagent'), 'the pattern catches a field name');
  const offenders = files.flatMap((f) => {
    const text = readFileSync(join(coreDir, f), 'utf8');
    const field = fieldRe.exec(text)?.[1];
    const release = /\b2\.1\.\d+\b/.exec(text)?.[0];
    return [...(field ? [`${f}: ${field}`] : []), ...(release ? [`${f}: ${release}`] : [])];
  });
  t.same(offenders, [], 'core speaks its own words');
});

// test/core/ mirrors src/core/'s concept folders, so a module's tests are where the module is: a test of
// src/core/<folder>/x.ts lives in test/core/<folder>/, and any test named after a core module (x.test.ts)
// sits in that module's folder, wherever in test/ it was first written.
t.test('test/core mirrors the concept folders of src/core', async (t) => {
  const testDir = join(dirname(fileURLToPath(import.meta.url)), 'core');
  const modules = new Map(
    readdirSync(coreDir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
      .map((e) => [e.name.replace(/\.ts$/, ''), relative(coreDir, e.parentPath)] as const),
  );
  const tests = readdirSync(testDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => relative(testDir, join(e.parentPath, e.name)));
  t.ok(tests.length >= 40, 'the core tests are read');
  for (const file of tests) {
    const folder = dirname(file);
    t.ok(
      folder === '.'
        ? modules.get(file.replace(/\.test\.ts$/, '')) === ''
        : [...modules.values()].some((d) => d === folder || d.startsWith(`${folder}/`)),
      `test/core/${file} sits in a folder of src/core (or at its root for a root module)`,
    );
    const text = readFileSync(join(testDir, file), 'utf8');
    const coreImports = [...text.matchAll(importRe)]
      .map((m) => m[1] ?? m[2] ?? m[3] ?? '')
      .filter((s) => s.includes('/src/core/'))
      .map((s) => relative(coreDir, dirname(resolve(testDir, folder, s))));
    if (folder !== '.' && coreImports.length > 0) {
      t.ok(
        coreImports.some((d) => d === folder || d.startsWith(`${folder}/`) || folder.startsWith(`${d}/`)),
        `test/core/${file} tests a module of src/core/${folder}/ (it imports ${coreImports.join(', ')})`,
      );
    }
  }
  const named = readdirSync(join(testDir, '..'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => relative(join(testDir, '..'), join(e.parentPath, e.name)))
    .filter(
      (f) =>
        !f.startsWith('core/') &&
        !/^(e2e|faults|security|claude-code|cli|adapters|web|server|tui|runtime|report)\//.test(f),
    );
  for (const f of named) {
    const mod = f
      .split('/')
      .pop()!
      .replace(/\.test\.ts$/, '');
    t.notOk(
      modules.has(mod),
      `test/${f} is named after src/core's ${mod}.ts: it belongs in test/core/${modules.get(mod) ?? ''}`,
    );
  }
});
