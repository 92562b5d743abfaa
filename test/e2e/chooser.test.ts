// End to end, REAL claude against the mock: three runs in three folders, one waiting on a permission.
// `flower-pty attach` from a fourth folder (no run is its) shows the chooser with the waiting run first;
// `/` + an id + Enter and a row's shortcut switch this terminal to that run; what is typed there reaches
// that run's claude and no other; C-] d and C-] s come back to the chooser; q closes it; every run is still
// live. `n` with a worktree named makes it beside folder D (a git repository), starts the run there
// detached and joins it. Inside `attach ID` the status bar says the other run waits, and C-] s opens the chooser.
import t from 'tap';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markerReplies } from '../../src/mock/fault-markers.js';
import { FLOWER_BIN, startFlower } from '../helpers/flower-run.js';
import { runClaude, testClaude } from '../helpers/real-claude.js';
import { liveRuns } from '../helpers/run-servers.js';

t.test(
  'the chooser: waiting run first, / + id + Enter, a shortcut, keys to the chosen run only, detach back',
  async (t) => {
    let folders: { b: string; c: string; d: string; here: string } | null = null;
    const f = await startFlower({
      t,
      respond: markerReplies(),
      prompt: 'make a file MOCK_TOUCH=x',
      claudeArgs: ['--permission-mode', 'default'],
      // two more folders claude trusts, and one with no run to open the chooser from
      prepare: (sandbox) => {
        const made = {
          b: join(sandbox.root, 'folder-b'),
          c: join(sandbox.root, 'folder-c'),
          d: join(sandbox.root, 'folder-d'),
          here: join(sandbox.root, 'elsewhere'),
        };
        for (const dir of Object.values(made)) mkdirSync(dir, { recursive: true });
        folders = {
          b: realpathSync(made.b),
          c: realpathSync(made.c),
          d: realpathSync(made.d),
          here: realpathSync(made.here),
        };
        const file = join(sandbox.configDir, '.claude.json');
        const config = JSON.parse(readFileSync(file, 'utf8'));
        // folder D a repository with a commit, and its worktree-to-be trusted too
        const d = folders.d;
        const git = (...args: string[]) =>
          execFileSync('git', args, {
            cwd: d,
            env: {
              ...process.env,
              GIT_AUTHOR_NAME: 'T',
              GIT_AUTHOR_EMAIL: 't@x.invalid',
              GIT_COMMITTER_NAME: 'T',
              GIT_COMMITTER_EMAIL: 't@x.invalid',
            },
          });
        git('init', '-q', '-b', 'main');
        writeFileSync(join(d, 'README'), 'D\n');
        git('add', 'README');
        git('commit', '-q', '-m', 'first');
        for (const dir of [folders.b, folders.c, folders.d, `${folders.d}-feat-d`])
          config.projects[dir] = { hasTrustDialogAccepted: true };
        writeFileSync(file, JSON.stringify(config, null, 2));
      },
    });
    const dirs = folders!;
    const detached = (cwd: string, prompt: string): string => {
      const r = spawnSync(
        process.execPath,
        [
          FLOWER_BIN,
          '-d',
          '--claude',
          testClaude(),
          '--workbench',
          join(cwd, '.flower'),
          prompt,
          '--',
          ...f.sandbox.claudeArgs,
        ],
        {
          cwd,
          env: f.sandbox.env as NodeJS.ProcessEnv,
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      t.equal(r.status, 0, `-d exits 0 (${r.stderr})`);
      return r.stdout.trim();
    };
    const b = detached(dirs.b, 'hello from folder B');
    const c = detached(dirs.c, 'hello from folder C');
    await f.run.waitForScreen(/Do you want to proceed\?/, 90_000);
    const runs = await liveRuns(f.runtime);
    t.equal(runs.length, 3, 'three runs');
    const a = runs.find((r) => r.id !== b && r.id !== c)!.id;
    const sessionB = (await f.api.waitForRequest((r) => r.isMain && /hello from folder B/.test(r.lastUserText), 60_000))
      .sessionId;
    const sessionC = (await f.api.waitForRequest((r) => r.isMain && /hello from folder C/.test(r.lastUserText), 60_000))
      .sessionId;
    t.not(sessionB, sessionC);

    // the chooser, from a folder no run is in
    const chooser = runClaude({
      t,
      sandbox: {
        ...f.sandbox,
        env: { ...f.sandbox.env, FLOWER_PTY_CLAUDE: testClaude() },
        projectDir: dirs.here,
        claudeArgs: [],
      },
      args: [FLOWER_BIN, 'attach'],
      bin: process.execPath,
      cols: 100,
      rows: 30,
    });
    // In the run this terminal switched to: its screen, a typed line reaching that run's claude, then C-] d.
    const typeIntoThenLeave = async (name: string, session: string | undefined, leave: 'd' | 's'): Promise<void> => {
      await chooser.waitForScreen(`hello from folder ${name}`, 30_000);
      await chooser.waitFor(async () => /❯/.test(await chooser.screenText()), 30_000, `claude's prompt in ${name}`);
      chooser.pty.write(`TYPED-INTO-${name}`);
      await chooser.waitForScreen(`TYPED-INTO-${name}`, 15_000);
      chooser.pty.write('\r');
      await f.api.waitForRequest(
        (r) => r.sessionId === session && r.lastUserText.includes(`TYPED-INTO-${name}`),
        60_000,
      );
      chooser.pty.write('\u001d');
      chooser.pty.write(leave);
    };
    const first = await chooser.waitForScreen(/flower-pty · 3 runs · 1 needs you/, 30_000);
    const rows = first.split('\n').filter((l) => /^\(\d\) /.test(l));
    t.equal(rows.length, 3, `a row per run:\n${first}`);
    t.match(
      rows[0],
      new RegExp(`^\\(0\\) ${a} .*waiting for your permission`),
      'the run waiting on a permission comes first',
    );
    // the selected run's screen under the list: its permission question
    await chooser.waitForScreen(new RegExp(`── ${a} ─+\\n(.*\\n)*.*Do you want to proceed`), 15_000);

    // `/` + B's id + Enter: this terminal is B's; C-] d comes back to the chooser, every run alive
    chooser.pty.write(`/${b}`);
    await chooser.waitForScreen(/1 match/, 10_000);
    chooser.pty.write('\r');
    await typeIntoThenLeave('B', sessionB, 'd');
    const back = await chooser.waitForScreen(/flower-pty · 3 runs/, 15_000);
    t.notOk(chooser.isExited(), 'the detach came back to the chooser');
    // C's shortcut, as its row shows it
    const rowC = back.split('\n').find((l) => l.includes(` ${c} `));
    const key = /^\((\w)\)/.exec(rowC ?? '')?.[1];
    t.ok(key, `C's row has a shortcut:\n${back}`);
    chooser.pty.write(key!);
    await typeIntoThenLeave('C', sessionC, 's'); // C-] s: the chooser again, as a detach would
    await chooser.waitForScreen(/flower-pty · 3 runs/, 15_000);
    // n: a new run in a new worktree of folder D (the folder asked, a worktree named, a prompt), started
    // detached and joined
    chooser.pty.write('n');
    await chooser.waitForScreen(`new run · folder: ${dirs.here}`, 10_000);
    chooser.pty.write('\u007f'.repeat(dirs.here.length) + dirs.d + '\r' + 'feat-d\r' + 'hello from folder D' + '\r');
    await chooser.waitForScreen('hello from folder D', 60_000);
    await f.api.waitForRequest((r) => r.isMain && /hello from folder D/.test(r.lastUserText), 60_000);
    chooser.pty.write('\u001d');
    chooser.pty.write('d');
    await chooser.waitForScreen(/flower-pty · 4 runs/, 15_000);
    chooser.pty.write('q');
    const exit = await chooser.exited;
    t.equal(exit.exitCode, 0, 'q closes the chooser');

    // each typed line reached its own run only
    const main = f.api.requests.filter((r) => r.isMain);
    t.same(
      main
        .filter((r) => /TYPED-INTO-B/.test(r.lastUserText))
        .map((r) => r.sessionId)
        .filter((s) => s !== sessionB),
      [],
      "B's keys reached B only",
    );
    t.same(
      main
        .filter((r) => /TYPED-INTO-C/.test(r.lastUserText))
        .map((r) => r.sessionId)
        .filter((s) => s !== sessionC),
      [],
      "C's keys reached C only",
    );
    t.notOk((await f.run.screenText()).includes('TYPED-INTO'), 'nothing typed reached the waiting run');
    // C-] s from a plain `attach ID` (the Node client, which can show the chooser): the chooser, then back
    const direct = runClaude({
      t,
      sandbox: {
        ...f.sandbox,
        env: { ...f.sandbox.env, FLOWER_PTY_NO_NATIVE: '1' },
        projectDir: dirs.here,
        claudeArgs: [],
      },
      args: [FLOWER_BIN, 'attach', b],
      bin: process.execPath,
      cols: 100,
      rows: 30,
    });
    await direct.waitForScreen('TYPED-INTO-B', 30_000);
    await direct.waitForScreen(/1 other run waits for you: C-\] s/, 15_000);
    direct.pty.write('\u001d');
    direct.pty.write('s');
    await direct.waitForScreen(/flower-pty · 4 runs/, 15_000);
    direct.pty.write('q');
    t.equal((await direct.exited).exitCode, 0, 'C-] s in attach ID opened the chooser; q closed it');
    const after = await liveRuns(f.runtime);
    t.same(
      after
        .filter((r) => r.cwd !== `${dirs.d}-feat-d`)
        .map((r) => r.id)
        .sort(),
      [a, b, c].sort(),
      'detaching left every run alive',
    );
    const tree = `${dirs.d}-feat-d`;
    t.same(after.filter((r) => r.cwd === tree).length, 1, "and the new run in folder D's new worktree");
    const worktrees = execFileSync('git', ['worktree', 'list'], { cwd: dirs.d, encoding: 'utf8' }).split('\n');
    t.ok(
      worktrees.some((l) => l.startsWith(`${tree} `) && l.endsWith(' [feat-d]')),
      `on its new branch:\n${worktrees.join('\n')}`,
    );
  },
);
