// What flower-pty spawns and writes, checked through the built bin with the fake claude: no shell
// between flower-pty and claude, step names that cannot climb out of the workbench, files no wider than
// 0644 under the user's umask, tokens masked, and no environment in the events file.
import t from 'tap';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startFake, fakeDoc, walk, FAKE_CLAUDE } from '../faults/fake-flower.js';
import { validateStep } from '../../src/core/document/step-name.js';
import { openNotesStore } from '../../src/adapters/notes-store.js';

t.test('step names never leave the notes folder', async (t) => {
  // Any absolute folder will do: nothing is written, only paths are computed.
  const wb = join(tmpdir(), 'flower-bench');
  for (const raw of ['../../x', '/etc/passwd', 'a\u0000b', '..', 'x/../../y', '..\\..\\z', '~/.ssh/k', 'a\nb']) {
    const checked = validateStep(raw);
    if ('problem' in checked) {
      t.match(checked.problem, /no usable characters/, `${JSON.stringify(raw)} is refused`);
      continue;
    }
    t.notMatch(checked.step, /[\\/\u0000\n]|\.\./, `${JSON.stringify(raw)} → ${checked.step}`);
    const path = openNotesStore(wb, checked.step).currentPath;
    t.equal(
      path.startsWith(`${wb}/notes/`) && !path.slice(`${wb}/notes/`.length).includes('/'),
      true,
      `${path} stays in notes/`,
    );
  }
});

t.test('--step ../../x through the bin: the document lands inside the workbench', async (t) => {
  const f = startFake({
    t,
    step: '../../escape',
    script: { runs: [{ steps: [{ turn: 60_000 }], handoff: { text: fakeDoc('STEP') } }] },
    prompt: 'go',
    flowerArgs: ['--window', '100k', '--review', '30'],
  });
  const done = await f.waitForEvent('done', 20_000);
  t.equal(done.path, join(f.workbench, 'notes', '交接-escape.md'));
  t.notOk(existsSync(join(f.root, 'escape')) || existsSync(join(f.root, '..', 'escape')), 'nothing outside');
});

t.test('--claude path and passthrough args reach claude literally: no shell', async (t) => {
  const f0 = startFake({ t, script: {}, flowerArgs: ['--help'] }); // only for a root; --help exits at once
  await f0.run.exited;
  const dir = join(f0.root, `odd $(touch PWNED) 'dir' "q"`);
  mkdirSync(dir, { recursive: true });
  const claude = join(dir, 'my claude `id`.mjs');
  symlinkSync(FAKE_CLAUDE, claude);
  const weird = [
    `--append-system-prompt`,
    `a b "c" 'd' $(touch PWNED2) \`touch PWNED3\` ; rm -rf nothing & | > x`,
    '--model',
    '$HOME',
  ];
  const f = startFake({
    t,
    root: f0.root,
    claude,
    claudeArgs: weird,
    script: { default: { steps: [{ turn: 5_000 }] } },
    prompt: '$(touch PWNED4) "quoted" prompt',
  });
  await f.run.waitFor(() => f.spawns().length === 1, 15_000, 'the fake claude to start');
  const argv = f.spawns()[0]!.argv;
  t.same(
    argv.slice(argv.indexOf('--append-system-prompt'), argv.indexOf('--append-system-prompt') + 4),
    weird,
    'user args verbatim, in order',
  );
  t.equal(argv.at(-1), '$(touch PWNED4) "quoted" prompt', 'the prompt verbatim after --');
  for (const name of ['PWNED', 'PWNED2', 'PWNED3', 'PWNED4']) {
    t.notOk(
      walk(f.root).some((p) => p.endsWith(name)),
      `nothing ran ${name}`,
    );
  }
});

t.test('files respect the umask and are never wider than 0644', async (t) => {
  for (const [umask, want] of [
    ['022', 0o644],
    ['077', 0o600],
    ['000', 0o644],
  ] as const) {
    const f = startFake({
      t,
      umask,
      script: { runs: [{ steps: [{ turn: 60_000 }], handoff: { text: fakeDoc('MODE') } }] },
      prompt: 'go',
      flowerArgs: ['--window', '100k', '--review', '30'],
    });
    await f.waitForEvent('done', 20_000);
    await f.manifestWhen((m) => m.generations?.[0]?.ended_at);
    for (const file of [join(f.workbench, 'manifest.json'), f.documentPath]) {
      t.equal(
        (statSync(file).mode & 0o777).toString(8),
        want.toString(8),
        `umask ${umask}: ${file.slice(f.root.length)}`,
      );
    }
    await f.run.kill();
  }
});

t.test('tokens are masked in -v and absent from the events and log files', async (t) => {
  const secret = 'sk-ant-api03-SECRETSECRETSECRET-xyz';
  const f0 = startFake({ t, script: {}, flowerArgs: ['--help'] });
  await f0.run.exited;
  const logPath = join(f0.root, 'flower.log');
  const f = startFake({
    t,
    root: f0.root,
    env: { ANTHROPIC_API_KEY: secret, ANTHROPIC_AUTH_TOKEN: secret, OTHER_SECRET: 'hunter2-private-value' },
    script: { runs: [{ steps: [{ turn: 60_000 }], handoff: { text: fakeDoc('TOKENS') } }] },
    prompt: 'go',
    flowerArgs: ['-v', '--log', logPath, '--window', '100k', '--review', '30'],
  });
  await f.waitForEvent('done', 20_000);
  await f.run.waitForScreen(/token sk-a\*+/, 5_000);
  t.notOk(f.run.output().includes('SECRETSECRET'), 'the token is masked on the terminal');
  const events = readFileSync(join(f.root, 'events.jsonl'), 'utf8');
  t.ok(events.length > 0);
  for (const needle of ['SECRETSECRET', 'hunter2', 'FAKE_CLAUDE_SCRIPT', process.env.PATH ?? 'PATH=']) {
    t.notOk(events.includes(needle), `events carry no ${needle.slice(0, 20)}`);
  }
  const log = existsSync(logPath) ? readFileSync(logPath, 'utf8') : '';
  t.notOk(log.includes('SECRETSECRET'), 'the log carries no token');
  t.notOk(readFileSync(join(f.workbench, 'manifest.json'), 'utf8').includes('SECRETSECRET'), 'nor the manifest');
});
