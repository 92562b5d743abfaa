// The core stays pure: nothing under src/core imports node:*, a pty, blessed, chokidar or any package.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const coreDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'core');
const importRe = /(?:^|\s)(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

t.test('src/core imports only relative core modules', async (t) => {
  const files = readdirSync(coreDir).filter((f) => f.endsWith('.ts'));
  t.ok(files.length >= 5, 'the core has its files');
  for (const file of files) {
    const text = readFileSync(join(coreDir, file), 'utf8');
    for (const m of text.matchAll(importRe)) {
      const spec = m[1] ?? m[2] ?? m[3] ?? '';
      t.ok(spec.startsWith('./') && !spec.includes('..'), `${file} imports "${spec}"`);
    }
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    t.notMatch(code, /\bprocess\.|\brequire\(|Date\.now\(\)/, `${file} reaches no process, require or clock`);
  }
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
      t.ok((spec.startsWith('./') && !spec.includes('..')) || /^\.\.\/core\/[\w-]+\.js$/.test(spec), `${file} imports "${spec}"`);
    }
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    t.notMatch(code, /\bprocess\.|\brequire\(|Date\.now\(\)/, `${file} reaches no process, require or clock`);
  }
});

// Every comment and doc points at something in the repository: the facts the code relies on are written in
// docs/ (claude-code-2.1.332.md, libraries.md), never cited from notes that live outside it. The names are
// spelled in pieces so this file does not match itself.
const repoDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUTSIDE = [['..', 'shared'].join('/'), ['', 'work', 'shared'].join('/'), ['claude-code-facts', 'md'].join('.'), ['stack', 'md'].join('.')];
const outsideRe = new RegExp(OUTSIDE.map((s) => `(?<![\\w-])${s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`).join('|'));
function filesUnder(dir: string): string[] {
  return readdirSync(join(repoDir, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !/\.(png|node|o)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

t.test('no file points outside the repository', async (t) => {
  const files = [...['src', 'test', 'scripts', 'native', 'docs'].flatMap(filesUnder), join(repoDir, 'README.md')];
  t.ok(files.length > 100, `the tree is read (${files.length} files)`);
  const offenders = files.filter((f) => outsideRe.test(readFileSync(f, 'utf8'))).map((f) => f.slice(repoDir.length + 1));
  t.same(offenders, [], 'no mention of notes outside the repository');
  t.ok(outsideRe.test(`see ${OUTSIDE[3]} §3`) && outsideRe.test(`in ${OUTSIDE[0]}/x`) && !outsideRe.test('callstack.md'), 'the pattern catches what it must');
});
