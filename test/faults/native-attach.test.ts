// `flower-pty attach` as a person runs it (the bin as an executable): the native client takes the certain case
// (the run's socket needs no asking, the terminal is a tty the server can open), and everything else goes to
// the Node client with the same arguments. Each way an attach ends prints the Node client's words and exit
// code; the editor runs in the native client's terminal; a server that dies gives the terminal back.
import t, { type Test } from 'tap';
import { chmodSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFake, fakeDoc, type FakeRun } from './fake-flower.js';
import { computeLayout } from '../../src/core/screen/layout.js';
import { oneRun } from '../helpers/run-servers.js';
import { requestRun } from '../../src/server/run-registry.js';
import { EXIT } from '../../src/core/exit-code.js';
import { REPO } from '../helpers/flower-run.js';
import type { RunningClaude } from '../helpers/real-claude.js';

const NATIVE = join(REPO, 'dist', 'native', 'flower-pty-attach');

/** what the process in the client's terminal is running now (the bin execs into the client it picks) */
function program(c: RunningClaude): string {
  return readlinkSync(`/proc/${c.pty.pid}/exe`);
}

/** a run started in one terminal, then left (a hang-up detaches it): the run goes on with nobody attached */
async function detachedRun(
  t: Test,
  script: object,
  flowerArgs: string[] = [],
  ready?: (f: FakeRun) => Promise<unknown>,
): Promise<{ f: FakeRun; id: string }> {
  const f = startFake({ t, script, prompt: 'go', flowerArgs });
  await (ready ? ready(f) : f.run.waitFor(() => f.run.output().includes('fake>'), 15_000, 'the prompt'));
  process.kill(f.run.pty.pid, 'SIGHUP');
  await f.run.exited;
  const run = await oneRun(f.runtime);
  return { f, id: run.id };
}

async function typeLine(r: RunningClaude, line: string): Promise<void> {
  r.pty.write(`${line}\r`);
  await r.waitFor(() => r.output().includes(`echo: ${line}`), 15_000, `echo: ${line}`);
}

const ECHO = { default: { steps: [{ print: 'FIRST\r\n' }] } };

t.test('the native client is built (the build has a C compiler here, as CI has)', async (t) => {
  t.ok(statSync(NATIVE).mode & 0o111, `${NATIVE} is executable`);
});

t.test(
  '--plain with the id: drawn by the server, keys reach claude, a hang-up detaches with the Node words',
  async (t) => {
    const { f, id } = await detachedRun(t, ECHO);
    const b = f.attach(['--plain', id], undefined, { asPerson: true });
    await b.waitForScreen('FIRST', 15_000);
    t.equal(program(b), NATIVE, 'the attach is the native client');
    await typeLine(b, 'typed through the native attach');
    process.kill(b.pty.pid, 'SIGHUP');
    const exit = await b.exited;
    t.equal(exit.exitCode, EXIT.ok, 'a detach is not a failure');
    t.match(
      b.output(),
      new RegExp(`flower-pty: detached from run ${id} \\(it goes on\\); attach again with flower-pty attach ${id}`),
    );
    t.equal((await oneRun(f.runtime)).clients, 0, 'the run goes on with nobody attached');
  },
);

t.test('the split view with no id (the only run): its prefix key detaches; a resize reaches the server', async (t) => {
  const { f, id } = await detachedRun(t, ECHO);
  const b = f.attach([], { cols: 150, rows: 40 }, { asPerson: true });
  await b.waitForScreen('FIRST', 15_000);
  t.equal(program(b), NATIVE);
  const pane = (cols: number, rows: number) => computeLayout({ cols, rows, documentVisible: true }).inner;
  const first = pane(150, 40);
  // (the split view paints cells, so the size is read off the screen, not the raw output)
  b.pty.write('size\r');
  await b.waitForScreen(`size: ${first.cols}x${first.rows}`, 15_000);
  b.pty.resize(160, 44);
  const second = pane(160, 44);
  t.not(`${second.cols}x${second.rows}`, `${first.cols}x${first.rows}`, 'a size that tells them apart');
  await b.waitFor(
    async () => {
      b.pty.write('size\r');
      return (await b.screenText()).includes(`size: ${second.cols}x${second.rows}`);
    },
    15_000,
    'claude follows the resized terminal',
  );
  b.pty.write('\u001d');
  b.pty.write('d');
  const exit = await b.exited;
  t.equal(exit.exitCode, EXIT.ok);
  t.match(b.output(), new RegExp(`detached from run ${id} \\(it goes on\\)`));
});

t.test('the run ended by flower-pty kill while attached: the kill line and the lineage line, exit 0', async (t) => {
  const { f, id } = await detachedRun(t, ECHO);
  const b = f.attach([id], undefined, { asPerson: true });
  await b.waitForScreen('FIRST', 15_000);
  t.equal(program(b), NATIVE);
  const answer = await requestRun((await oneRun(f.runtime)).socket, { t: 'kill' }, 20_000);
  t.ok(answer.ok, 'kill answered');
  const exit = await b.exited;
  t.equal(exit.exitCode, EXIT.ok);
  t.match(b.output(), new RegExp(`flower-pty: run ${id} was ended by flower-pty kill`));
  t.match(
    b.output(),
    new RegExp(
      `flower-pty: lineage in ${f.workbench.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/manifest\\.json; pick it up again with flower-pty --continue`,
    ),
  );
});

t.test(
  'the server SIGKILLed while attached: the modes go off, the terminal is cooked again, exit 9 naming --continue',
  async (t) => {
    const { f, id } = await detachedRun(t, { default: { steps: [{ modes: true }] } });
    const b = f.attach(['--plain', id], undefined, { asPerson: true });
    await b.waitForScreen('modes on', 15_000);
    t.equal(program(b), NATIVE);
    const pid = (await oneRun(f.runtime)).pid;
    const before = b.output().length;
    process.kill(pid, 'SIGKILL');
    const exit = await b.exited;
    t.equal(exit.exitCode, EXIT.serverLost);
    const after = b.output().slice(before);
    for (const [name, seq] of [
      ['alt screen', '\u001b[?1049l'],
      ['mouse', '\u001b[?1000l'],
      ['bracketed paste', '\u001b[?2004l'],
      ['cursor shown', '\u001b[?25h'],
    ]) {
      t.ok(after.includes(seq!), `${name} reset`);
    }
    t.match(
      after,
      new RegExp(
        `flower-pty: the run server ${id} is gone \\(pid ${pid} killed\\?\\); pick the lineage up with flower-pty --continue`,
      ),
    );
  },
);

t.test("the editor runs in the native client's terminal and its end reaches the server", async (t) => {
  // (the run is left once the document is frozen and under review: the prompt scrolls away meanwhile)
  const { f } = await detachedRun(
    t,
    { runs: [{ steps: [{ turn: 60_000 }], handoff: { text: fakeDoc('E') } }, { steps: [{ print: 'NEXT\r\n' }] }] },
    ['--review', '60', '--window', '100k'],
    (f) => f.waitForEvent('done', 30_000),
  );
  const editor = join(f.root, 'editor.sh');
  writeFileSync(editor, '#!/bin/sh\necho "EDITED BY THE PERSON" >> "$1"\n');
  chmodSync(editor, 0o755);
  const b = f.attach([], { cols: 150, rows: 40 }, { asPerson: true, env: { VISUAL: editor } });
  await b.waitForScreen('Fake task E', 15_000);
  t.equal(program(b), NATIVE);
  b.pty.write('\u001d');
  b.pty.write('e');
  await b.waitForScreen('EDITED BY THE PERSON', 15_000);
  b.pty.write('\u001d');
  b.pty.write('d');
  t.equal((await b.exited).exitCode, EXIT.ok);
});

t.test('--plain --detach-key: the native client reads it itself, and the key detaches', async (t) => {
  for (const withId of [true, false]) {
    const { f, id } = await detachedRun(t, ECHO);
    const args = withId ? ['--plain', '--detach-key', 'C-x', id] : ['--detach-key=^x', '--plain'];
    const key = f.attach(args, undefined, { asPerson: true });
    await key.waitForScreen('FIRST', 15_000);
    t.equal(program(key), NATIVE, `${args.join(' ')}: the native client`);
    await typeLine(key, 'still here');
    key.pty.write('\u0018');
    await key.waitFor(() => key.isExited(), 15_000, 'the detach');
    t.equal((await key.exited).exitCode, EXIT.ok, 'its detach key detaches');
    t.match(key.output(), /detached from run/);
  }
});

t.test("Ctrl-C typed in the editor is the editor's: neither client detaches", async (t) => {
  const { f } = await detachedRun(
    t,
    { runs: [{ steps: [{ turn: 60_000 }], handoff: { text: fakeDoc('E') } }, { steps: [{ print: 'NEXT\r\n' }] }] },
    ['--review', '60', '--window', '100k'],
    (f) => f.waitForEvent('done', 30_000),
  );
  // An editor that takes Ctrl-C itself (as vi does): the terminal still sends SIGINT to the whole
  // foreground group, the client in it.
  const editor = join(f.root, 'editor.sh');
  writeFileSync(
    editor,
    '#!/bin/sh\ntrap "echo CTRL-C TAKEN" INT\necho "EDITOR WAITING"\nread line\nread line\necho "EDITED AFTER CTRL-C" >> "$1"\n',
  );
  chmodSync(editor, 0o755);
  for (const [client, env] of [
    ['native', {}],
    ['node', { FLOWER_PTY_NO_NATIVE: '1' }],
  ] as const) {
    const b = f.attach([], { cols: 150, rows: 40 }, { asPerson: true, env: { VISUAL: editor, ...env } });
    await b.waitForScreen('Fake task E', 15_000);
    b.pty.write('\u001d');
    b.pty.write('e');
    await b.waitForScreen('EDITOR WAITING', 15_000);
    b.pty.write('\u0003');
    await b.waitForScreen('CTRL-C TAKEN', 15_000);
    b.pty.write('\r');
    await new Promise((resolve) => setTimeout(resolve, 300));
    b.pty.write('\r');
    await b.waitForScreen('EDITED AFTER CTRL-C', 15_000);
    t.notOk(b.isExited(), `${client}: still attached after the editor`);
    b.pty.write('\u001d');
    b.pty.write('d');
    t.equal((await b.exited).exitCode, EXIT.ok, `${client}: detached by its own key`);
    t.match(b.output(), /detached/);
  }
});

t.test('what the native client does not take goes to Node, with the same arguments', async (t) => {
  const { f, id } = await detachedRun(t, ECHO);
  // a flag it does not read
  const flag = f.attach(['--plain', '--workbench', f.workbench, id], undefined, { asPerson: true });
  await flag.waitForScreen('FIRST', 15_000);
  t.match(program(flag), /node/, '--workbench: the Node client');
  process.kill(flag.pty.pid, 'SIGHUP');
  await flag.exited;
  // a detach key that is not one: Node's own words
  const wrong = f.attach(['--plain', '--detach-key', 'C-c', id], undefined, { asPerson: true });
  t.not((await wrong.exited).exitCode, EXIT.ok);
  t.match(wrong.output(), /flower-pty: --detach-key: prefix C-c is one of Claude Code's own keys/);
  // an id that is no run: Node's own words
  const none = f.attach(['zz9'], undefined, { asPerson: true });
  const exit = await none.exited;
  t.not(exit.exitCode, EXIT.ok);
  t.match(none.output(), /flower-pty: no live run has id zz9/);
  // FLOWER_PTY_NO_NATIVE keeps it out
  const off = f.attach(['--plain', id], undefined, { asPerson: true, env: { FLOWER_PTY_NO_NATIVE: '1' } });
  await off.waitForScreen('FIRST', 15_000);
  t.match(program(off), /node/, 'FLOWER_PTY_NO_NATIVE=1: the Node client');
  process.kill(off.pty.pid, 'SIGHUP');
  await off.exited;
});

t.test('the native client: the server counts the other runs that wait, and rings once for a new wait', async (t) => {
  const { startFakeRun, askingStatus: asking } = await import('../helpers/wire-server.js');
  const { openSocketDir } = await import('../../src/server/socket-dir.js');
  const { sleep } = await import('../helpers/poll.js');
  const { f, id } = await detachedRun(t, ECHO);
  const dir = await openSocketDir({ XDG_RUNTIME_DIR: f.runtime });
  // one run already waiting when the terminal joins: counted, not rung
  const early = await startFakeRun(dir, 'early1', { info: { cwd: '/w/early', status: asking('Bash ls') } });
  t.teardown(() => early.close());
  const b = f.attach([id], { cols: 120, rows: 30 }, { asPerson: true });
  await b.waitForScreen('FIRST', 15_000);
  t.equal(program(b), NATIVE, 'the attach is the native client');
  await b.waitForScreen(/1 other run waits for you: C-\] s/, 15_000);
  // one that starts waiting while the terminal is here: counted, and rung once
  const late = await startFakeRun(dir, 'late01', { info: { cwd: '/w/late', status: asking('Bash touch x') } });
  t.teardown(() => late.close());
  await b.waitForScreen(/2 other runs wait for you: C-\] s/, 15_000);
  const rung = () => b.output().split('\u001b]9;flower-pty: run late01 waits for you').length - 1;
  await b.waitFor(() => rung() > 0, 15_000, "the late run's notification");
  await sleep(4_500); // two more looks at the same waits
  t.equal(rung(), 1, 'rung once for the new wait, not on every look');
  t.notOk(b.output().includes('run early1 waits for you'), 'the run already waiting was not rung');
  t.notOk(b.output().includes(`run ${id} waits`), 'nor the run in front');
  process.kill(b.pty.pid, 'SIGHUP');
  await b.exited;
});
