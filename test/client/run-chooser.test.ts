// The chooser on a (fake) terminal with fake ports: a host that never answers says so on its line while this
// machine's runs and another host's are listed and usable at once; a shortcut joins the run it names, with
// no reader on the terminal meanwhile, and the list is back after; x + y ends a run; q closes.
import t from 'tap';
import { PassThrough } from 'node:stream';
import { runChooser, type ChooserEntry, type ChooserPorts } from '../../src/client/run-chooser.js';
import { until } from '../helpers/poll.js';

const run = (id: string, attention: string | null = null): Omit<ChooserEntry, 'host'> => ({
  id,
  cwd: `/w/${id}`,
  phase: 'working',
  generation: 1,
  context: 1000,
  window: 200_000,
  started: '2026-12-01T04:00:00.000Z',
  status: { attention },
});

function fakeTerminal() {
  const stdin = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.ReadStream & PassThrough;
  const out = Object.assign(new PassThrough(), {
    columns: 100,
    rows: 30,
    isTTY: false,
  }) as unknown as NodeJS.WriteStream & PassThrough;
  let written = '';
  out.on('data', (d: Buffer) => (written += d.toString()));
  // the last paint, as plain lines
  const screen = () => (written.split('\u001b[H').at(-1) ?? '').replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
  return { stdin, out, screen };
}

t.test('a hung host, the others at once; a shortcut joins, back after; x y ends; q closes', async (t) => {
  const term = fakeTerminal();
  const joined: string[] = [];
  const ended: string[] = [];
  let readWhileAway = 0;
  let local = [run('aaaaaa'), run('bbbbbb', 'waiting for your permission: Bash ls')];
  const ports: ChooserPorts = {
    cwd: '/w',
    home: null,
    command: 'flower-pty',
    hosts: ['hung-box', 'fast-box'],
    listLocal: async () => local,
    askHost: (host) =>
      host === 'hung-box' ? new Promise(() => undefined) : Promise.resolve({ runs: [run('cccccc')] }),
    join: async (entry) => {
      joined.push(`${entry.host ?? 'local'}:${entry.id}`);
      // while the run has the terminal, nothing here listens to it
      readWhileAway += term.stdin.listenerCount('data');
      await new Promise((r) => setTimeout(r, 50));
      return 'detached from run';
    },
    end: async (entry) => {
      ended.push(entry.id);
      local = local.filter((r) => r.id !== entry.id);
      return `run ${entry.id} ended`;
    },
    start: async () => ({ problem: 'not here' }),
    stdin: term.stdin,
    stdout: term.out,
    localEveryMs: 50,
    hostEveryMs: 50,
  };
  const closed = runChooser(ports);
  await until(
    'the local runs and the fast host listed',
    () => /fast-box +cccccc/.test(term.screen()) && /local +bbbbbb/.test(term.screen()),
    5_000,
  );
  t.match(term.screen(), /hung-box: asked \d+s ago, no answer yet/, "the hung host's line says so");
  t.match(term.screen(), /^\(0\) local +bbbbbb .*waiting for your permission/m, 'the waiting run first');
  const fastKey = /^\((\w)\) fast-box/m.exec(term.screen())![1]!;
  term.stdin.write(fastKey);
  await until('joined', () => joined.length === 1, 5_000);
  t.same(joined, ['fast-box:cccccc'], 'the shortcut joined the run on the host that answered');
  await until('back in the list', () => /detached from run/.test(term.screen()), 5_000);
  t.equal(readWhileAway, 0, 'no reader on the terminal while the run had it');
  t.equal(term.stdin.listenerCount('data'), 1, 'and the chooser reads it again');
  term.stdin.write('kkx'); // the top row: the waiting run
  await until('asked', () => /end run bbbbbb .*\(y\/n\)/.test(term.screen()), 5_000);
  term.stdin.write('y');
  await until('ended', () => /run bbbbbb ended/.test(term.screen()), 5_000);
  t.same(ended, ['bbbbbb']);
  await until('gone from the list', () => !/local +bbbbbb/.test(term.screen()), 5_000);
  term.stdin.write('q');
  t.equal(await closed, 0);
});

t.test('a run that ends while selected: its row goes, Enter joins the next; one gone at Enter is a line', async (t) => {
  const term = fakeTerminal();
  const joined: string[] = [];
  let local = [run('aaaaaa', 'waiting for your permission: Bash ls'), run('bbbbbb')];
  let listed = 0;
  const ports: ChooserPorts = {
    cwd: '/w',
    home: null,
    command: 'npx flower-pty',
    hosts: [],
    listLocal: async () => {
      listed++;
      return local;
    },
    askHost: async () => ({ runs: [] }),
    join: async (entry) => {
      joined.push(entry.id);
      // it ended after the list said it was there: the attach fails in one line
      if (entry.id === 'bbbbbb') throw new Error('no run answers on /s/bbbbbb.sock (ENOENT): it has ended');
      return null;
    },
    end: async () => 'not here',
    start: async () => ({ problem: 'not here' }),
    stdin: term.stdin,
    stdout: term.out,
    localEveryMs: 30,
  };
  const closed = runChooser(ports);
  t.teardown(() => void term.stdin.write('q')); // a failed wait still closes it
  await until('aaaaaa selected', () => /^\(0\) +aaaaaa/m.test(term.screen()), 5_000);
  local = [run('bbbbbb')]; // the selected run ends
  const at = listed;
  await until('listed again', () => listed > at + 1, 5_000);
  await until('its row gone', () => !/aaaaaa/.test(term.screen()), 5_000);
  term.stdin.write('\r');
  await until('joined', () => joined.length === 1, 5_000);
  t.same(joined, ['bbbbbb'], 'Enter joined the run still there, not the one that ended');
  await until('the line saying why', () => /it has ended/.test(term.screen()), 5_000);
  t.equal(term.stdin.listenerCount('data'), 1, 'the chooser reads the terminal again');
  local = [];
  await until('no run left', () => /0 runs/.test(term.screen()), 5_000);
  term.stdin.write('\r'); // nothing to switch to: nothing joined
  await new Promise((r) => setTimeout(r, 100));
  t.same(joined, ['bbbbbb']);
  term.stdin.write('q');
  t.equal(await closed, 0);
});
