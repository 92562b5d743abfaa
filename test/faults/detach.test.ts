// The run outlives its terminal (fake claude): a hang-up or a SIGKILL of the client detaches in every
// phase and the run goes on, attachable from a new terminal; the server SIGKILLed ends each client with
// one line naming --continue and takes claude with it; several clients share one run (keys, sizes).
import t, { type Test } from 'tap';
import { startFake, fakeDoc, alive, claudeSize, type FakeRun } from './fake-flower.js';
import { serverPids, oneRun } from '../helpers/run-servers.js';
import { requestRun } from '../../src/server/run-registry.js';
import { encodeFrame, WIRE_VERSION } from '../../src/server/wire.js';
import { createConnection } from 'node:net';
import type { RunningClaude } from '../helpers/real-claude.js';

const titleOf = (r: RunningClaude) => [...r.output().matchAll(/\u001b\]0;([^\u0007]*)\u0007/g)].at(-1)?.[1] ?? '';

async function typeLine(r: RunningClaude, line: string): Promise<void> {
  r.pty.write(`${line}\r`);
  await r.waitFor(() => r.output().includes(`echo: ${line}`), 15_000, `echo: ${line}`);
}

async function killRun(t: Test, f: FakeRun): Promise<void> {
  const run = await oneRun(f.runtime);
  const answer = await requestRun(run.socket, { t: 'kill' }, 20_000);
  t.ok(answer.ok, 'kill answered');
  const m = await f.manifestWhen((m) => m.generations?.at(-1)?.ended_at != null);
  t.ok(m.generations.at(-1).ended_at, 'kill closed the last generation');
}

t.test(
  'SIGHUP (the terminal closed) detaches: modes reset, exit 0, the run goes on and takes a new terminal',
  async (t) => {
    const f = startFake({ t, script: { default: { steps: [{ modes: true }] } }, flowerArgs: ['--no-workbench'] });
    await f.run.waitFor(() => f.run.output().includes('modes on'), 15_000, 'modes on');
    const claude = f.spawns()[0]!.pid;
    const before = f.run.output().length;
    process.kill(f.run.pty.pid, 'SIGHUP');
    const exit = await f.run.exited;
    t.equal(exit.exitCode, 0, 'a detach is not a failure');
    const after = f.run.output().slice(before);
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
      /detached from run (\w{6}) \(it goes on\); attach again with (?:npx flower-pty|node \S*flower-pty\.js'?|flower-pty) attach \1/,
    );
    t.ok(alive(claude), 'claude goes on');
    const run = await oneRun(f.runtime);
    t.equal(run.clients, 0, 'nobody attached');

    const b = f.attach(['--plain', run.id]);
    await b.waitForScreen('modes on', 15_000); // the first paint is the server's screen
    await typeLine(b, 'after the hang-up');
    t.equal(f.spawns().length, 1, 'the same claude');
  },
);

t.test(
  'a client SIGKILLed, or its terminal closed, in each phase: the run goes on unattended and is attachable',
  async (t) => {
    const phases: Array<{ phase: string; args: string[]; run: unknown; at: (f: FakeRun) => Promise<unknown> }> = [
      {
        phase: 'working',
        args: ['--review', '0'],
        run: { steps: [{ sleep: 1500 }, { turn: 60_000 }], handoff: { text: fakeDoc('W') } },
        at: (f) => f.waitForEvent('generation-start', 20_000),
      },
      {
        phase: 'writing',
        args: ['--review', '0', '--write-timeout', '2'],
        run: { steps: [{ turn: 60_000 }], handoff: 'hang' },
        at: (f) => f.waitForEvent('writing', 20_000),
      },
      {
        phase: 'review',
        args: ['--review', '3'],
        run: { steps: [{ turn: 60_000 }], handoff: { text: fakeDoc('R') } },
        at: (f) => f.waitForEvent('done', 20_000),
      },
      {
        phase: 'respawning',
        args: ['--review', '0'],
        run: { steps: [{ turn: 60_000 }], handoff: { text: fakeDoc('S') } },
        at: (f) => f.waitForEvent('done', 20_000),
      },
    ];
    for (const p of phases)
      for (const signal of ['SIGKILL', 'SIGHUP'] as const) {
        await t.test(`${p.phase}, ${signal}`, async (t) => {
          const f = startFake({
            t,
            script: { runs: [p.run, { steps: [{ print: 'SUCCESSOR-UP\r\n' }] }] },
            prompt: 'go',
            flowerArgs: ['--window', '100k', ...p.args],
          });
          await p.at(f);
          process.kill(f.run.pty.pid, signal);
          await f.run.exited;
          const start = await f.waitForEvent('generation-start', 30_000, (e) => e.generation === 2);
          t.equal(start.successor, true, 'the handoff happened with nobody attached');
          const b = f.attach(['--plain']);
          await b.waitForScreen('SUCCESSOR-UP', 20_000);
          await b.waitFor(() => /gen 2\/8/.test(titleOf(b)), 10_000, 'generation 2 in the title');
          await typeLine(b, `typed in ${p.phase}`);
          await killRun(t, f);
          const exit = await b.exited;
          t.equal(exit.exitCode, 0);
          t.match(b.output(), /ended by flower-pty kill/);
        });
      }
  },
);

t.test('the server SIGKILLed: every client exits with one line naming --continue; claude goes too', async (t) => {
  const f = startFake({ t, script: { default: { steps: [{ print: 'FIRST\r\n' }] } }, prompt: 'go' });
  await f.run.waitFor(() => f.run.output().includes('fake>'), 15_000, 'the prompt');
  const run = await oneRun(f.runtime);
  const b = f.attach(['--plain', run.id]);
  await b.waitForScreen('FIRST', 15_000);
  const claude = f.spawns()[0]!.pid;
  const [server] = serverPids(f.runtime);
  t.equal(server, run.pid, 'the server is the process ls names');
  process.kill(server!, 'SIGKILL');
  for (const client of [f.run, b]) {
    const exit = await client.exited;
    t.equal(exit.exitCode, 9, 'the server died without a word: exit 9, not 1 (a bug)');
    const lines = client
      .output()
      .split(/\r?\n/)
      .filter((l) => /(?:npx flower-pty|node \S*flower-pty\.js'?|flower-pty) --continue/.test(l));
    t.equal(lines.length, 1, 'one line');
    t.match(
      lines[0],
      /run server \w{6} is gone .*pick the lineage up with (?:npx flower-pty|node \S*flower-pty\.js'?|flower-pty) --continue/,
    );
  }
  await f.run.waitFor(() => !alive(claude), 10_000, 'claude to exit').catch(() => undefined);
  t.notOk(alive(claude), 'no claude left running');
});

t.test(
  'two clients typing at once, and claude follows the size of the client that attached or typed last',
  async (t) => {
    const f = startFake({ t, script: { default: { steps: [] } }, prompt: 'go' });
    await f.run.waitFor(() => f.run.output().includes('fake>'), 15_000, 'the prompt');
    t.equal(await claudeSize(f.run), 'size: 100x30', "the first terminal's size");
    const b = f.attach(['--plain'], { cols: 80, rows: 20 });
    await b.waitForScreen('fake>', 15_000);
    t.equal(await claudeSize(b), 'size: 80x20', 'a smaller terminal attached: claude follows it');
    f.run.pty.write('alpha from a\r');
    b.pty.write('beta from b\r');
    for (const client of [f.run, b]) {
      await client.waitFor(
        () => client.output().includes('echo: alpha from a') && client.output().includes('echo: beta from b'),
        15_000,
        'both echoes on both screens',
      );
    }
    // A key from a terminal brings claude to its size (the resize reaches claude just before the key).
    await typeLine(f.run, 'a typed');
    t.equal(await claudeSize(f.run), 'size: 100x30', 'back to 100x30 once the first terminal typed');
    await typeLine(b, 'b typed');
    t.equal(await claudeSize(b), 'size: 80x20', 'and to 80x20 when the other one typed');
    await b.kill();
    await typeLine(f.run, 'a again');
    t.equal(await claudeSize(f.run), 'size: 100x30', 'the one left types: its size');
    await killRun(t, f);
    t.equal((await f.run.exited).exitCode, 0);
  },
);

t.test("--plain --detach-key: the key alone detaches; every other key is claude's", async (t) => {
  const f = startFake({ t, script: { default: { steps: [] } }, prompt: 'go', flowerArgs: ['--detach-key', 'C-\\'] });
  await f.run.waitFor(() => f.run.output().includes('fake>'), 15_000, 'the prompt');
  await typeLine(f.run, "still claude's");
  f.run.pty.write('\u001c');
  const exit = await f.run.exited;
  t.equal(exit.exitCode, 0);
  t.match(f.run.output(), /detached from run \w{6}/);
  t.equal((await oneRun(f.runtime)).clients, 0, 'the run goes on, nobody attached');
});

t.test('a second flower-pty on a workbench with a live run is refused in one line naming attach', async (t) => {
  const f = startFake({ t, script: { default: { steps: [] } }, prompt: 'go' });
  await f.run.waitFor(() => f.run.output().includes('fake>'), 15_000, 'the prompt');
  const run = await oneRun(f.runtime);
  const second = startFake({ t, root: f.root, script: { default: { steps: [] } }, prompt: 'again' });
  const exit = await second.run.exited;
  t.equal(exit.exitCode, 2);
  const lines = second.run.output().trim().split(/\r?\n/);
  t.equal(lines.length, 1, 'one line');
  // the step in the person's own command: `flower-pty`, `npx flower-pty` or `node …/flower-pty.js` (own-command.ts)
  t.match(lines[0], new RegExp(`flower-pty: .*flower-pty(\\.js)? attach ${run.id}`));
  t.equal(f.spawns().length, 1, 'no second claude');
});

t.test('a terminal attached during the review window sees the frozen document and the countdown', async (t) => {
  const f = startFake({
    t,
    script: { runs: [{ steps: [{ turn: 60_000 }], handoff: { text: fakeDoc('FROZEN-FOR-REVIEW') } }] },
    prompt: 'go',
    flowerArgs: ['--window', '100k', '--review', '60'],
  });
  await f.waitForEvent('done', 20_000);
  process.kill(f.run.pty.pid, 'SIGKILL');
  await f.run.exited;
  const b = f.attach([], { cols: 120, rows: 40 }); // the split view
  const screen = await b.waitForScreen(/successor in \d+s/, 20_000);
  t.match(screen, /FROZEN-FOR-REVIEW/, 'the document pane holds the frozen document');
  t.match(screen, /review/);
  const first = Number(/successor in (\d+)s/.exec(screen)![1]);
  await b.waitFor(
    async () => Number(/successor in (\d+)s/.exec(await b.screenText())?.[1] ?? first) < first,
    10_000,
    'the countdown to move',
  );
  t.equal(f.spawns().length, 1, 'the successor waits for the window');
});

t.test(
  'a client claiming a 10000x10000 terminal cannot make the server allocate it: claude gets at most 1000x500',
  async (t) => {
    const f = startFake({ t, script: { default: { steps: [] } }, prompt: 'go' });
    await f.run.waitFor(() => f.run.output().includes('fake>'), 15_000, 'the prompt');
    const run = await oneRun(f.runtime);
    const socket = createConnection(run.socket);
    t.teardown(() => socket.destroy());
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      encodeFrame({ t: 'hello', version: WIRE_VERSION, role: 'attach', cols: 10_000, rows: 10_000, face: 'plain' }),
    );
    // the resize reaches claude as a signal, a key as input: let a first line pass so the size is in place
    socket.write(encodeFrame({ t: 'input', data: 'first\r' }));
    await f.run.waitFor(() => f.run.output().includes('echo: first'), 15_000, 'the first line');
    socket.write(encodeFrame({ t: 'input', data: 'size\r' }));
    await f.run.waitFor(() => f.run.output().includes('size: 1000x500'), 15_000, 'claude at the bounded size');
    await typeLine(f.run, 'still here');
    t.equal(serverPids(f.runtime).length, 1, 'the server lives');
  },
);
