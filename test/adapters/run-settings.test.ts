// Tests for the per-run settings file (shape, mode, shell quoting run through /bin/sh -c as claude does)
// and for the read-only lookup of the user's own statusLine command.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import {
  mkdtempSync,
  mkdirSync,
  writeFileSync,
  readFileSync,
  statSync,
  existsSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRelease } from '../../src/claude-code/release.js';
import {
  writeRunSettings,
  buildRunSettings,
  findUserStatusLine,
  shellQuote,
  defaultHookCommand,
  nodeHookCommand,
  settingsDefaultMode,
} from '../../src/adapters/run-settings.js';

interface Settings {
  hooks: Record<string, Array<{ hooks: Array<{ type: string; command: string; timeout: number }> }>>;
  statusLine?: { type: string; command: string; padding: number };
}

function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'fpt-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const readSettings = (file: string): Settings => JSON.parse(readFileSync(file, 'utf8')) as Settings;

t.test('the settings file: mode 0600, one command hook per default event, the status line relay', async (t) => {
  const dir = tempDir(t);
  const file = await writeRunSettings({
    dir,
    hookCommand: ['/usr/bin/node', '/opt/fp/dist/hook-client.js'],
    statusLine: true,
  });
  t.equal(file, join(dir, 'settings.json'));
  t.equal(statSync(file).mode & 0o777, 0o600);
  t.same(readdirSync(dir), ['settings.json'], 'no temp file left behind');
  const s = readSettings(file);
  t.same(
    Object.keys(s.hooks),
    [
      'SessionStart',
      'UserPromptSubmit',
      'PostToolUse',
      'PostToolUseFailure',
      'PermissionRequest',
      'PermissionDenied',
      'Stop',
      'StopFailure',
      'Notification',
      'PreCompact',
      'SessionEnd',
    ],
    'the newest release: every hook flower-pty handles',
  );
  t.same(s.hooks['Stop'], [
    { hooks: [{ type: 'command', command: "'/usr/bin/node' '/opt/fp/dist/hook-client.js' Stop", timeout: 60 }] },
  ]);
  t.same(s.statusLine, {
    type: 'command',
    command: "'/usr/bin/node' '/opt/fp/dist/hook-client.js' statusline",
    padding: 0,
  });
});

t.test('custom events, no status line, and a rewrite replaces the file', async (t) => {
  const dir = tempDir(t);
  await writeRunSettings({ dir, hookCommand: ['a'], statusLine: true });
  const file = await writeRunSettings({
    dir,
    hookCommand: ['b'],
    events: ['PreCompact', 'Odd Event'],
    statusLine: false,
  });
  const s = readSettings(file);
  t.same(Object.keys(s.hooks), ['PreCompact', 'Odd Event']);
  t.equal(s.hooks['Odd Event']?.[0]?.hooks[0]?.command, "'b' 'Odd Event'", 'a non-identifier event is quoted too');
  t.notOk('statusLine' in s);
  t.equal(statSync(file).mode & 0o777, 0o600);
});

t.test('an empty hook command is a programming error', async (t) => {
  await t.rejects(writeRunSettings({ dir: tempDir(t), hookCommand: [], statusLine: false }), {
    message: /at least one/,
  });
});

t.test('shellQuote survives single quotes, spaces and substitutions', async (t) => {
  t.equal(shellQuote("it's"), `'it'\\''s'`);
  t.equal(shellQuote(''), "''");
});

// The hostile path: spaces, both quotes, a command substitution, backticks, a glob, a newline and a dollar.
const hostile = `a dir "with" 'quotes' $(touch pwned) \`touch pwned2\` * $HOME\nend`;

t.test('hook and status line commands run through /bin/sh -c deliver the argv literally', async (t) => {
  const root = tempDir(t);
  const dir = join(root, hostile);
  mkdirSync(dir, { recursive: true });
  const script = join(dir, "echo 'argv'.mjs");
  writeFileSync(script, 'process.stdout.write(JSON.stringify(process.argv.slice(1)));\n');
  const file = await writeRunSettings({ dir, hookCommand: [process.execPath, script, hostile], statusLine: true });
  const s = readSettings(file);
  const commands: Array<[string, string]> = [
    [s.hooks['Stop']?.[0]?.hooks[0]?.command ?? '', 'Stop'],
    [s.statusLine?.command ?? '', 'statusline'],
  ];
  for (const [command, event] of commands) {
    // Exactly as claude runs a hook: the command string handed to a shell, in the session's folder.
    const run = spawnSync('/bin/sh', ['-c', command], { cwd: root, encoding: 'utf8' });
    t.equal(run.status, 0, `${event}: ${run.stderr}`);
    t.same(JSON.parse(run.stdout), [script, hostile, event], `${event}: the argv arrives literally`);
  }
  for (const where of [root, dir, process.cwd()]) {
    t.notOk(existsSync(join(where, 'pwned')), `no $() ran in ${where}`);
    t.notOk(existsSync(join(where, 'pwned2')), `no backticks ran in ${where}`);
  }
});

t.test('buildRunSettings is the same object the file holds', async (t) => {
  const dir = tempDir(t);
  const input = { dir, hookCommand: ['x', 'y z'], statusLine: true };
  t.same(readSettings(await writeRunSettings(input)), buildRunSettings(input));
});

// Lays out the three settings files findUserStatusLine consults; `undefined` leaves a file out.
function layout(
  t: { teardown(fn: () => void): void },
  files: { local?: string; project?: string; user?: string },
): { cwd: string; configDir: string } {
  const root = tempDir(t);
  const cwd = join(root, 'proj');
  const configDir = join(root, 'config');
  mkdirSync(join(cwd, '.claude'), { recursive: true });
  mkdirSync(configDir, { recursive: true });
  if (files.local !== undefined) writeFileSync(join(cwd, '.claude', 'settings.local.json'), files.local);
  if (files.project !== undefined) writeFileSync(join(cwd, '.claude', 'settings.json'), files.project);
  if (files.user !== undefined) writeFileSync(join(configDir, 'settings.json'), files.user);
  return { cwd, configDir };
}

const withStatus = (command: unknown): string =>
  JSON.stringify({ model: 'x', statusLine: { type: 'command', command } });

t.test('findUserStatusLine: local project, then project, then user settings', async (t) => {
  const all = layout(t, { local: withStatus('L'), project: withStatus('P'), user: withStatus('U') });
  t.equal(await findUserStatusLine(all), 'L');
  t.equal(await findUserStatusLine(layout(t, { project: withStatus('P'), user: withStatus('U') })), 'P');
  t.equal(
    await findUserStatusLine(layout(t, { user: withStatus('~/.claude/statusline.sh') })),
    '~/.claude/statusline.sh',
  );
  t.equal(await findUserStatusLine(layout(t, {})), null);
});

t.test('findUserStatusLine skips malformed files and settings without a usable command', async (t) => {
  const files = { local: '{ not json', project: JSON.stringify({ statusLine: 'oops' }), user: withStatus('U') };
  t.equal(await findUserStatusLine(layout(t, files)), 'U');
  t.equal(
    await findUserStatusLine(layout(t, { local: withStatus(42), project: withStatus('  '), user: 'null' })),
    null,
  );
  t.equal(await findUserStatusLine(layout(t, { local: '[]', project: JSON.stringify({ statusLine: null }) })), null);
  t.equal(await findUserStatusLine({ cwd: '/nonexistent/here', configDir: '/nonexistent/too' }), null);
});

t.test('findUserStatusLine never writes', async (t) => {
  const where = layout(t, { local: '{ broken', user: withStatus('U') });
  const snapshot = (): string[] =>
    [where.cwd, join(where.cwd, '.claude'), where.configDir].flatMap((d) =>
      readdirSync(d).map((f) => `${d}/${f}:${statSync(join(d, f)).mtimeMs}:${statSync(join(d, f)).size}`),
    );
  const before = snapshot();
  t.equal(await findUserStatusLine(where), 'U');
  t.same(snapshot(), before);
  t.equal(readFileSync(join(where.cwd, '.claude', 'settings.local.json'), 'utf8'), '{ broken');
});

t.test(
  'defaultHookCommand is the native hook client when it was built, else dist/cli/hook-client.js; the same from the source and from the build',
  async (t) => {
    const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
    const native = join(repo, 'dist', 'native', 'flower-pty-hook');
    const viaNode = [process.execPath, join(repo, 'dist', 'cli', 'hook-client.js')];
    t.ok(existsSync(native), 'npm run build compiled the native hook client (it needs a C compiler, as CI has)');
    const want = existsSync(native) ? [native] : viaNode;
    t.same(defaultHookCommand(), want, 'from the TypeScript source');
    t.same(nodeHookCommand(), viaNode, 'the Node twin');
    const built = join(repo, 'dist', 'adapters', 'run-settings.js');
    if (!existsSync(built))
      spawnSync(join(repo, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], {
        cwd: repo,
        stdio: 'ignore',
      });
    const probe = `import(${JSON.stringify(built)}).then((m) => process.stdout.write(JSON.stringify([m.defaultHookCommand(), m.nodeHookCommand()])))`;
    const run = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
    t.same(JSON.parse(run.stdout || 'null'), [want, viaNode], `from the build: ${run.stderr}`);
  },
);

t.test('an older release gets only the hooks it knows: no StopFailure before 2.1.78', async (t) => {
  const dir = tempDir(t);
  const hooksOf = async (version: string): Promise<string[]> =>
    Object.keys(
      readSettings(
        await writeRunSettings({ dir, hookCommand: ['c'], release: parseRelease(version), statusLine: false }),
      ).hooks,
    );
  t.notOk((await hooksOf('2.1.77')).includes('StopFailure'), '2.1.77 would refuse the whole file over it');
  t.ok((await hooksOf('2.1.78')).includes('StopFailure'));
  t.ok((await hooksOf('2.1.47')).includes('PermissionRequest'));
});

t.test("settingsDefaultMode: the person's user settings' permissions.defaultMode, or null", async (t) => {
  const cases: Array<{ file: string | null; mode: string | null }> = [
    { file: null, mode: null },
    { file: 'not json', mode: null },
    { file: '{"permissions":{"defaultMode":"acceptEdits"}}', mode: 'acceptEdits' },
    { file: '{"permissions":{"defaultMode":"bypassPermissions","allow":[]}}', mode: 'bypassPermissions' },
    { file: '{"permissions":{"defaultMode":7}}', mode: null },
    { file: '{"permissions":"plan"}', mode: null },
  ];
  for (const c of cases) {
    const configDir = tempDir(t);
    if (c.file !== null) writeFileSync(join(configDir, 'settings.json'), c.file);
    t.equal(await settingsDefaultMode({ configDir }), c.mode, String(c.file));
  }
});
