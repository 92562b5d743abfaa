// An attach client's first paint. A split view the server draws from its one screen is given the run's
// latest state as soon as it is made, so its first frame is whole (claude's screen with the status bar,
// the title and the cursor) and no second whole frame follows; the repaint reaches it after, for its
// books on claude's modes. A --plain face and a stream client get the repaint first, then the state.
import t from 'tap';
import tty from 'node:tty';
import type { Test } from 'tap';
import { paintClient } from '../../src/server/client-paint.js';
import { createServerFace } from '../../src/server/server-face.js';
import { createClaudeKeys, PERSON_KEYS } from '../../src/runtime/claude-keys.js';
import { createClientRegistry } from '../../src/server/client-registry.js';
import type { ClientLink } from '../../src/server/client-link.js';
import type { TerminalFace } from '../../src/server/terminal-face.js';
import { WIRE_VERSION, type Hello, type ServerMessage } from '../../src/server/wire.js';
import type { StatusView } from '../../src/core/screen/status.js';
import { personTerminal } from '../helpers/person-terminal.js';
import { runInfo } from '../helpers/wire-server.js';

const VIEW: StatusView = {
  phase: 'working',
  context: 42_000,
  window: 200_000,
  at: 150_000,
  warnAt: 120_000,
  generation: 2,
  maxGenerations: 8,
  handoff: true,
  reviewLeft: null,
  held: false,
  workbench: null,
  documentPath: null,
  note: 'NOTE-OF-THE-RUN',
  attention: null,
};

// What reached the client: to its face (drawn here) or on the wire, in order, and when the repaint was taken.
function paintOnce(t: Test, face: 'split' | 'plain' | 'stream', ownCommand = 'flower-pty') {
  const events: string[] = [];
  const serverFace = createServerFace({ cols: 98, rows: 24, broadcast: () => undefined });
  t.teardown(() => serverFace.screen.dispose());
  const repaint = serverFace.screen.repaint.bind(serverFace.screen);
  serverFace.screen.repaint = async () => {
    const screen = await repaint();
    events.push('repaint');
    return screen;
  };
  serverFace.show({ t: 'child', state: 'started' });
  serverFace.childOutput('CLAUDE-SCREEN-LINE\r\n> ');
  serverFace.show({ t: 'title', title: 'TITLE-OF-CLAUDE' });
  serverFace.show({ t: 'status', view: VIEW });
  const registry = createClientRegistry(serverFace);
  const person = personTerminal(t, { cols: 100, rows: 30 });
  // The server opens the person's terminal itself: what it writes there is seen on the way, write by write
  // (a frame is one write), where the pty would run them together.
  const writes: string[] = [];
  const write = tty.WriteStream.prototype.write;
  tty.WriteStream.prototype.write = function (this: tty.WriteStream, chunk: unknown, ...rest: unknown[]) {
    writes.push(String(chunk));
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof write;
  t.teardown(() => {
    tty.WriteStream.prototype.write = write;
  });
  let drawn: TerminalFace | null = null;
  const client: ClientLink = {
    role: 'attach',
    live: false,
    size: null,
    get face() {
      return drawn;
    },
    setFace(next) {
      drawn = next;
      t.teardown(() => next.restore());
      const show = next.show.bind(next);
      next.show = (message) => (events.push(`face ${message.t}`), show(message));
    },
    send: () => undefined,
    show: () => undefined,
    close: () => undefined,
    setRole: () => undefined,
    hold: () => undefined,
    goLive(_welcome: Buffer | null, first: ServerMessage[]) {
      for (const message of first) drawn ? drawn.show(message) : events.push(`wire ${message.t}`);
    },
  };
  registry.add(client);
  const hello: Hello = {
    t: 'hello',
    version: WIRE_VERSION,
    role: 'attach',
    cols: 100,
    rows: 30,
    term: 'xterm-256color',
    ...(face === 'stream' ? {} : { face, tty: person.path }),
  };
  const ctx = {
    serverFace,
    registry,
    relay: null,
    log: () => undefined,
    info: () => runInfo('abc123'),
    keys: createClaudeKeys({ echoFirst: false }),
    senderOf: () => PERSON_KEYS,
    command: () => undefined,
    detach: () => undefined,
    ownCommand: () => ownCommand,
  };
  return { events, writes, person, painted: paintClient(ctx, client, hello) };
}

const settle = (ms = 120) => new Promise((r) => setTimeout(r, ms));

t.test('a split view drawn from the one screen: the state at once, one whole first frame', async (t) => {
  const { events, writes, painted } = paintOnce(t, 'split');
  await painted;
  await settle();
  t.same(
    events,
    ['face child', 'face title', 'face status', 'repaint', 'face screen'],
    'the state before the repaint, the repaint for its books after',
  );
  const frames = writes.filter((w) => w.includes('CLAUDE-SCREEN-LINE'));
  t.equal(frames.length, 1, "claude's screen drawn once");
  t.match(frames[0], /NOTE-OF-THE-RUN/, 'with the status bar in the same frame');
  t.match(frames[0], /TITLE-OF-CLAUDE/, 'and the title on the pane');
  // (the repaint's own empty parse asks for claude's changed rows: none, the cursor put back where it is)
  const after = writes
    .slice(writes.indexOf(frames[0]!) + 1)
    .join('')
    .replace(/\u001b\[\d+;\d+H/g, '');
  t.equal(after, '', 'and nothing drawn after it');
});

t.test("a --plain face and a stream client: the repaint first, then the state, in the stream's order", async (t) => {
  for (const face of ['plain', 'stream'] as const) {
    const { events, painted } = paintOnce(t, face);
    await painted;
    const to = face === 'plain' ? 'face' : 'wire';
    t.same(events, ['repaint', `${to} child`, `${to} screen`, `${to} title`, `${to} status`], face);
  }
});

t.test("a split view the server draws names flower-pty as the run's folder types it", async (t) => {
  const own = 'node /opt/fp-checkout/bin/flower-pty.js';
  const { person, painted } = paintOnce(t, 'split', own);
  await painted;
  await settle();
  person.type('\u001d?');
  const until = Date.now() + 10_000;
  // the help's detach line, through the person's terminal (escapes taken out: blessed moves over blank cells)
  const shown = () => person.seen().replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ' ');
  while (!shown().includes('/opt/fp-checkout/bin/flower-pty.js') && Date.now() < until) await settle(50);
  t.match(shown(), /detach/, 'the help is up');
  t.match(
    shown(),
    /\/opt\/fp-checkout\/bin\/flower-pty\.js +attach/,
    'its detach line names the words the server gave',
  );
});
