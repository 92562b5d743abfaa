// The editor hand-off: which editor, a path that survives the shell, and failures said in one line.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { editorCommand, runEditor, shellQuote } from '../../src/tui/editor.js';
import { createOuterModes } from '../../src/tui/outer-modes.js';
import { tempRoot } from '../helpers/temp-root.js';

t.test('$VISUAL wins over $EDITOR, vi when neither is set', async (t) => {
  t.equal(editorCommand({ VISUAL: 'code --wait', EDITOR: 'nano' }), 'code --wait');
  t.equal(editorCommand({ EDITOR: 'nano' }), 'nano');
  t.equal(editorCommand({ VISUAL: '  ', EDITOR: '' }), 'vi');
});

t.test('a hostile path reaches the editor as one argument', async (t) => {
  const path = '/tmp/it\'s a "doc" $(touch /tmp/pwned) `x`.md';
  t.equal(execFileSync('/bin/sh', ['-c', `printf %s ${shellQuote(path)}`], { encoding: 'utf8' }), path);
});

t.test('the editor runs on the file; a failing or missing editor is one line with the fix', async (t) => {
  const dir = tempRoot(t, 'flower-editor-');
  const file = join(dir, 'doc with space.md');
  writeFileSync(file, 'x');
  const ok = await runEditor(file, { PATH: process.env.PATH, EDITOR: 'sed -i s/x/edited/' });
  t.same(ok, { ok: true });
  t.equal(readFileSync(file, 'utf8'), 'edited');
  const failed = await runEditor(file, { PATH: process.env.PATH, EDITOR: 'false' });
  t.match(failed, { ok: false, problem: /the editor "false" ended with code 1/ });
  const missing = await runEditor(file, { PATH: process.env.PATH, EDITOR: 'no-such-editor-anywhere' });
  t.match(missing, { ok: false, problem: /not found, set \$VISUAL or \$EDITOR/ });
});

t.test('outer modes: only changes are written, off() forgets so the next sync re-sends', async (t) => {
  const out: string[] = [];
  const modes = createOuterModes((s) => out.push(s));
  modes.sync({ paste: true, focus: false, mouse: false });
  modes.sync({ paste: true, focus: false, mouse: false });
  t.same(out, ['\u001b[?2004h'], 'nothing written when nothing changed');
  modes.sync({ paste: false, focus: true, mouse: false });
  t.equal(out[1], '\u001b[?2004l\u001b[?1004h');
  t.equal(modes.off(), '\u001b[?2004l\u001b[?1004l\u001b[?1003l\u001b[?1006l');
  modes.sync({ paste: false, focus: true, mouse: false });
  t.equal(out[2], '\u001b[?1004h', 'after off() the wanted mode is sent again');
  modes.sync({ paste: false, focus: true, mouse: true });
  t.equal(out[3], '\u001b[?1003h\u001b[?1006h', 'mouse reports asked of the outer terminal as any-event + SGR');
});
