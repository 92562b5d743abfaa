// The README's "Try it without an account" path, command by command, on the built bin in real ptys: the
// demo started detached, `ls` lists it, `attach` shows it and `C-] d` detaches, `web` serves it to headless
// Chromium at 390×844 with its state and the review countdown on the first screen, and the `status` and
// `report` lines the demo printed work from the folder the person is in (the report with both curves).
// Everything lives under one temp root (TMPDIR too, so the demo's own folder), removed at the end.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { runClaude } from '../helpers/real-claude.js';
import { endServersAtTeardown, runtimeDir, serverPids } from '../helpers/run-servers.js';
import type { Sandbox } from '../../src/mock/claude-sandbox.js';
import { logIn, openBrowser, pageScreen, startWeb } from '../web/web-helpers.js';
import { sleep } from '../helpers/poll.js';

t.test('try it without an account: demo -d, ls, attach, C-] d, web on a phone, status, report, kill', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'flower-try-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const here = join(root, 'here'); // where the person types
  for (const dir of [here, join(root, 'home'), join(root, 'tmp')]) mkdirSync(dir, { recursive: true });
  const runtime = runtimeDir(root);
  endServersAtTeardown(t, runtime);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: join(root, 'home'),
    TMPDIR: join(root, 'tmp'),
    XDG_RUNTIME_DIR: runtime,
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_CACHE_HOME: join(root, 'cache'),
    TERM: 'xterm-256color',
  };
  // a person's terminal in `here`: the program is node running the bin
  const terminal = { claudeArgs: [], projectDir: here, env } as unknown as Sandbox;
  const flower = (args: string[]) => {
    const r = spawnSync(process.execPath, [FLOWER_BIN, ...args], { cwd: here, env, encoding: 'utf8', timeout: 60_000 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const runsJson = () =>
    JSON.parse(flower(['ls', '--json']).out || '[]') as Array<{
      id: string;
      phase: string;
      generation: number;
      clients: number;
      context: number;
    }>;
  const waitForRun = async (
    what: string,
    ok: (run: { phase: string; generation: number; context: number }) => boolean,
    ms: number,
  ) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const run = runsJson()[0];
      if (run && ok(run)) return run;
      if (Date.now() > deadline) throw new Error(`the demo never reached ${what}: ${JSON.stringify(run)}`);
      await sleep(250);
    }
  };

  // flower-pty demo -d --review 60
  const start = runClaude({
    t,
    sandbox: terminal,
    args: [FLOWER_BIN, 'demo', '-d', '--review', '60'],
    bin: process.execPath,
    cols: 120,
    rows: 40,
  });
  t.equal((await start.exited).exitCode, 0, 'demo -d returns at once');
  const said = start.output().replace(/\r/g, '');
  const id = /run (\w{6}) started with no terminal/.exec(said)?.[1] ?? '';
  t.match(id, /^\w{6}$/, `it names its run:\n${said}`);
  // no flower-pty on the PATH and `here` outside the checkout: the bin is named by its path
  t.match(said, new RegExp(`node \\S+/bin/flower-pty\\.js attach ${id}`), 'how to attach');
  t.match(said, /node \S+\/bin\/flower-pty\.js web/, 'how to open it in the web face');
  const lines = said
    .trimEnd()
    .split('\n')
    .slice(-2)
    .map((line) => line.trim());
  t.match(lines[0], /^node \S+\/bin\/flower-pty\.js status --workbench \S+\/project\/\.flower$/);
  t.match(lines[1], /^node \S+\/bin\/flower-pty\.js report --workbench \S+\/project\/\.flower$/);
  // each line as printed, pasted into a shell in `here`
  const asPrinted = (line: string) => {
    const r = spawnSync('sh', ['-c', line], {
      cwd: here,
      env: { ...env, PATH: `${join(process.execPath, '..')}:${env.PATH}` },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };

  // flower-pty ls
  const ls = flower(['ls']);
  t.equal(ls.code, 0, ls.err);
  t.match(ls.out, new RegExp(`^${id} `, 'm'), 'ls lists the demo');

  // flower-pty attach, then C-] d
  const attached = runClaude({
    t,
    sandbox: terminal,
    args: [FLOWER_BIN, 'attach'],
    bin: process.execPath,
    cols: 120,
    rows: 40,
  });
  const screen = await attached.waitForScreen(/demo: /, 60_000);
  t.match(screen, /context [\d.]+K?\/100\.0K/, 'the split view: the meter in the status bar');
  t.notMatch(screen, /retired|retires/, "the demo's model is one the pinned claude does not warn about");
  attached.pty.write('\u001d');
  attached.pty.write('d');
  t.equal((await attached.exited).exitCode, 0, 'C-] d detaches');
  t.match(attached.output(), `detached from run ${id} (it goes on)`);

  // flower-pty web, on a phone-sized page, while the document waits in its review
  await waitForRun('its review', (run) => run.phase === 'review', 120_000);
  const web = await startWeb(t, { runtime, env });
  const context = await openBrowser(t, { width: 390, height: 844 });
  const page = await context.newPage();
  await logIn(page, web);
  await page.goto(`${web.base}/run/${id}`);
  await page.waitForFunction(
    () => /^review \d+ s$/.test(document.getElementById('state')?.textContent ?? ''),
    undefined,
    { timeout: 15_000 },
  );
  for (const part of ['state', 'meterbox', 'hold']) {
    const box = await page.locator(`#${part}`).boundingBox();
    t.ok(
      box && box.y >= 0 && box.y + box.height <= 844 && box.x + box.width <= 390,
      `#${part} is on the first screen: ${JSON.stringify(box)}`,
    );
  }
  t.match(await page.locator('#state').textContent(), /^review \d+ s$/, 'the state and its countdown');
  t.notMatch(await pageScreen(page), /claude --resume/, "claude's own resume advice is not shown during the review");

  // the lineage, with the lines the demo printed, from here, once the successor has started
  await waitForRun("its successor's first turn", (run) => run.generation === 2 && run.context > 0, 120_000);
  const status = asPrinted(lines[0]!);
  t.equal(status.code, 0, status.err);
  t.match(status.out, /^step work · 2 generation\(s\)/);
  t.match(status.out, `live: run ${id}`);
  const report = asPrinted(lines[1]!);
  t.equal(report.code, 0, report.err);
  const pagePath = /^report: (\S+report\.html)/.exec(report.out)?.[1] ?? '';
  const html = readFileSync(pagePath, 'utf8');
  t.equal((html.match(/<polyline/g) ?? []).length, 2, 'both curves: the transcripts found where the run recorded them');
  t.notMatch(html, /not found at/);

  // flower-pty kill: the demo keeps going detached until it is ended
  const kill = flower(['kill']);
  t.equal(kill.code, 0, kill.err);
  t.match(kill.out, `run ${id} ended`);
  const deadline = Date.now() + 15_000;
  while (serverPids(runtime).length > 0 && Date.now() < deadline) await sleep(100);
  t.same(serverPids(runtime), [], 'no run server left');
});
