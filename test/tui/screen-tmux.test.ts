// The split view as a person sees it: the built flower-pty in tmux running a fake claude. Panes,
// prompt, document, status bar, keys, prefix commands, the editor, resize, quit; a few golden screens.
import t from 'tap';
import type { Test } from 'tap';
import { mkdirSync, readFileSync, writeFileSync, existsSync, renameSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTmux, type Tmux } from './tmux.js';
import { runtimeDir, endServersAtTeardown } from '../helpers/run-servers.js';
import { tempRoot } from '../helpers/temp-root.js';
import { ownCommandHere } from '../../src/adapters/own-command-here.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FAKE = join(REPO, 'test', 'fixtures', 'programs', 'fake-claude.mjs');
const EDITOR = join(REPO, 'test', 'fixtures', 'programs', 'fake-editor.mjs');
const GOLDEN = join(REPO, 'test', 'golden', 'screens');

const DOCUMENT = `# 交接 · work

## Doing · 现在在做
wiring the split view into flower-pty

## Next · 下一步
run the tmux screen tests
`;

function flower(
  t: Test,
  opts: { cols: number; rows: number; args: string; document?: string },
): { tmux: Tmux; wb: string; docPath: string } {
  t.ok(existsSync(join(REPO, 'dist', 'faces', 'split-face.js')), 'dist is built (npm run build)');
  const root = tempRoot(t, 'flower-tui-');
  const wb = join(root, 'wb');
  const home = join(root, 'home');
  mkdirSync(join(wb, 'notes'), { recursive: true });
  mkdirSync(home);
  const docPath = join(wb, 'notes', '交接-work.md');
  if (opts.document) writeFileSync(docPath, opts.document);
  const runtime = runtimeDir(root); // the run server's socket folder, and its end at teardown
  endServersAtTeardown(t, runtime);
  const env = `env -u VISUAL -u TMUX NCURSES_NO_UTF8_ACS=1 LANG=C.UTF-8 HOME=${home} CLAUDE_CONFIG_DIR=${home}/.claude EDITOR=${EDITOR} XDG_RUNTIME_DIR=${runtime}`;
  const command = `cd ${REPO} && ${env} node bin/flower-pty.js ${opts.args} --claude ${FAKE} --workbench ${wb}; echo "EXITED $?"; exec sleep 600`;
  return { tmux: startTmux(t, { cols: opts.cols, rows: opts.rows, command }), wb, docPath };
}

// Display columns of a captured line: CJK and emoji take two (enough for what the fake prints).
function columns(line: string): number {
  let n = 0;
  for (const ch of line) {
    const cp = ch.codePointAt(0) ?? 0;
    n +=
      cp >= 0x1f300 ||
      (cp >= 0x2e80 && cp <= 0x9fff) ||
      (cp >= 0xac00 && cp <= 0xd7a3) ||
      (cp >= 0xff00 && cp <= 0xff60)
        ? 2
        : 1;
  }
  return n;
}

// Golden screens: the temp path normalised; UPDATE_GOLDEN=1 rewrites them.
function golden(t: Test, name: string, screen: string, wb: string): void {
  const normal = screen
    .split(wb)
    .join('<WB>')
    .replace(/\/tmp\/flower-tui-\w+/g, '<ROOT>')
    .replace(/ +$/gm, '');
  const file = join(GOLDEN, `${name}.txt`);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, normal);
  }
  t.equal(normal, readFileSync(file, 'utf8'), `golden screen ${name}`);
}

t.test('wide terminal: claude beside its document, keys, prefix commands, editor, resize, quit', async (t) => {
  const { tmux, wb, docPath } = flower(t, {
    cols: 160,
    rows: 40,
    args: '--no-handoff --window 200k',
    document: DOCUMENT,
  });
  let screen = await tmux.waitFor(
    (s) => s.includes('fake-claude> ') && s.includes('wiring the split view'),
    'the prompt and the document',
    30_000,
  );
  let rows = screen.split('\n');
  t.match(rows[0], /^┌─ ▶ claude ─+┐┌─ .*交接-work\.md ─+┐$/, 'two panes with their labels');
  t.match(
    rows[3],
    /^│fake-claude> +││## Doing · 现在在做 +│$/,
    "the fake's prompt is inside the session pane, the document beside it",
  );
  t.match(
    rows[1],
    /^│fake-claude ready truecolor inverse ✓ 中文 😀x +││# 交接 · work +│$/,
    'nothing slips in after a wide emoji',
  );
  t.equal(columns(rows[1]!.slice(0, rows[1]!.indexOf('││'))), 95, 'CJK and emoji keep the border in its column');
  t.match(rows[2], /size 94x36/, 'the child got the pane inner size');
  t.match(rows[38], /^ working · context 0\/200\.0K · handoff off .* gen 1\/8$/);
  t.match(rows[39], /C-\] \? for keys$/, 'the key hint (tmux trims the trailing blank)');
  golden(t, 'wide-document', screen, wb);

  tmux.type('hello');
  tmux.send('Enter');
  await tmux.waitFor((s) => s.includes('echo: hello'), 'the echo of typed keys');
  tmux.send('Up');
  await tmux.waitFor((s) => s.includes('key: ESC[A'), 'Up as ESC [ A for a child in normal cursor mode');
  tmux.type('app');
  tmux.send('Enter');
  await tmux.waitFor((s) => s.includes('app cursor on'), 'application cursor mode on');
  tmux.send('Up');
  await tmux.waitFor((s) => s.includes('key: ESCOA'), 'Up as ESC O A in application mode');
  tmux.send('C-]', 'C-]');
  await tmux.waitFor((s) => s.includes('key: ^]'), 'the prefix twice reaching the child as one byte');

  tmux.type('paste');
  tmux.send('Enter');
  await tmux.waitFor((s) => s.includes('bracketed paste on'), 'the child asking for bracketed paste');
  tmux.run('set-buffer', 'pasted \u001d text');
  tmux.run('paste-buffer', '-p', '-t', 'main');
  await tmux.waitFor(
    (s) => s.includes('paste: pasted ^] text'),
    'a bracketed paste arriving whole, its C-] byte not taken as the prefix',
  );

  tmux.send('C-]', 'z');
  screen = await tmux.waitFor(
    (s) => s.includes('resized 158x36'),
    'the child resized when the document pane is hidden',
  );
  t.notMatch(screen, /交接-work\.md/, 'the document pane is gone');
  tmux.send('C-]', 'z');
  screen = await tmux.waitFor(
    (s) => s.includes('resized 94x36') && s.includes('wiring the split view'),
    'the document pane back',
  );

  tmux.send('C-]', 'e');
  screen = await tmux.waitFor((s) => s.includes('edited by fake-editor'), 'the edited document after $EDITOR');
  t.match(readFileSync(docPath, 'utf8'), /edited by fake-editor/);
  t.equal(tmux.display('#{alternate_on}'), '1', 'back on the split screen after the editor');

  // Edits from outside (the supervisor watches the file): sed -i (temp + rename), then an atomic
  // write that drops a required section, which the pane flags.
  execFileSync('sed', ['-i', 's/run the tmux screen tests/changed by sed from outside/', docPath]);
  await tmux.waitFor((s) => s.includes('changed by sed from outside'), 'the document pane after sed -i');
  writeFileSync(`${docPath}.tmp`, '## Doing · 现在在做\nrewritten by a rename\n');
  renameSync(`${docPath}.tmp`, docPath);
  screen = await tmux.waitFor((s) => s.includes('rewritten by a rename'), 'the document pane after an atomic rename');
  t.match(screen, /! missing required section: Next · 下一步/, 'the broken document is flagged');
  writeFileSync(
    docPath,
    readFileSync(docPath, 'utf8') + '\n## Next · 下一步\nrun the tmux screen tests\n\nedited by fake-editor\n',
  );
  await tmux.waitFor(
    (s) => !s.includes('missing required section') && s.includes('edited by fake-editor'),
    'the flag gone after the fix',
  );

  tmux.resize(100, 40);
  screen = await tmux.waitFor((s) => s.includes('resized 98x23'), 'the child told of the stacked size');
  rows = screen.split('\n');
  t.match(rows[25], /^┌─ .*交接-work\.md ─+┐$/, 'stacked: the document pane under the session');
  golden(t, 'narrow-stacked', screen, wb);

  tmux.send('C-]', 'q');
  screen = await tmux.waitFor((s) => s.includes('EXITED 0'), 'flower-pty exiting 0 after prefix q');
  t.equal(tmux.display('#{alternate_on}'), '0', 'the alternate screen is left');
  t.equal(tmux.display('#{cursor_flag}'), '1', 'the cursor is visible');
  t.equal(tmux.display('#{keypad_cursor_flag}'), '0', 'cursor keys back in normal mode');
  t.notMatch(screen, /┌─/, 'no pane is left drawn on the shell screen');
});

t.test('with handoff on and no document yet, the pane explains the plan', async (t) => {
  const { tmux, wb } = flower(t, { cols: 160, rows: 40, args: '--window 200k' });
  const screen = await tmux.waitFor(
    (s) => s.includes('fake-claude> ') && s.includes('handoff at 150.0K'),
    'the prompt and the plan',
    30_000,
  );
  t.match(screen, /about 150\.0K to the handoff/);
  t.match(screen, /notes\/交接-work\.md/);
  golden(t, 'wide-plan', screen, wb);
  tmux.send('C-]', '?');
  // the run's folder is this checkout: the help names flower-pty as it runs there (npx, unless linked)
  const back = `detach (the run goes on; ${ownCommandHere(process.env, REPO)} attach)`;
  await tmux.waitFor((s) => s.includes('flower-pty keys') && s.includes(back), 'the key help, its way back');
  tmux.send('x');
  await tmux.waitFor((s) => !s.includes('flower-pty keys'), 'the help closed by any key');
  tmux.send('C-]', 'q');
  await tmux.waitFor((s) => /EXITED \d+/.test(s), 'flower-pty exiting');
  t.equal(tmux.display('#{alternate_on}'), '0');
});
