// A chooser's word that it lists a run (docs/chooser.md, the switch): the hello it sends, and the run
// server's warm-up it sets off (server/split-warmup.ts): once per terminal name, one at a time, a failure
// a log line, and the throwaway split view itself drawn into nothing and torn down.
import t from 'tap';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createSplitWarmup, drawSplitOnce } from '../../src/server/split-warmup.js';
import { tellChooserListed } from '../../src/client/run-socket.js';
import { createFrameReader, parseClientMessage, WIRE_VERSION, type ClientMessage } from '../../src/server/wire.js';
import { tempRoot } from '../helpers/temp-root.js';
import { until } from '../helpers/poll.js';

t.test('each terminal name is warmed once, one at a time, after the hello is answered', async (t) => {
  const drawn: string[] = [];
  let drawing = 0;
  let most = 0;
  const warmup = createSplitWarmup({
    latest: () => null,
    log: () => t.fail('nothing failed'),
    draw: async (term) => {
      drawing++;
      most = Math.max(most, drawing);
      drawn.push(term);
      await new Promise((r) => setTimeout(r, 20));
      drawing--;
    },
  });
  warmup.hint('xterm-256color');
  warmup.hint('xterm-256color');
  warmup.hint('screen-256color');
  warmup.hint(undefined); // no $TERM: the split view's own default, already warmed
  t.same(drawn, [], 'nothing drawn in the hello’s own turn');
  await until('both drawn', () => drawn.length === 2, 5000);
  await new Promise((r) => setTimeout(r, 50));
  t.same(drawn, ['xterm-256color', 'screen-256color']);
  t.equal(most, 1, 'one at a time');
});

t.test('a warm-up that fails is a log line, and the next name is still warmed', async (t) => {
  const lines: string[] = [];
  const drawn: string[] = [];
  const warmup = createSplitWarmup({
    latest: () => null,
    log: (line) => lines.push(line),
    draw: async (term) => {
      if (term === 'bad') throw new Error('no such terminal');
      drawn.push(term);
    },
  });
  warmup.hint('bad');
  warmup.hint('xterm');
  await until('the second drawn', () => drawn.length === 1, 5000);
  t.same(lines, ['warming the split view for bad failed: no such terminal']);
  t.same(drawn, ['xterm']);
});

t.test('the throwaway split view is drawn and torn down, leaving no listener behind', async (t) => {
  const events = ['exit', 'SIGTERM', 'SIGINT', 'SIGTSTP', 'SIGCONT', 'uncaughtException'] as const;
  const before = events.map((e) => process.listenerCount(e));
  await drawSplitOnce('xterm-256color', null);
  t.same(
    events.map((e) => process.listenerCount(e)),
    before,
    'every process listener blessed added is gone',
  );
  // the second, warm, is much quicker than a cold one would be; that it resolves at all is what is asserted
  await drawSplitOnce('xterm-256color', null);
});

t.test('the chooser says it lists a run: a query hello with chooser and the terminal name', async (t) => {
  const dir = tempRoot(t, 'flower-warm-');
  const path = join(dir, 'abc123.sock');
  const heard: ClientMessage[] = [];
  const server = createServer((socket) => {
    const reader = createFrameReader<ClientMessage>({
      validate: parseClientMessage,
      onMessage: (m) => heard.push(m),
      onError: (reason) => t.fail(reason),
    });
    socket.on('data', (d) => reader.push(d));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(path, r));
  t.teardown(() => server.close());
  tellChooserListed(path, 'xterm-kitty');
  await until('the hello', () => heard.length === 1, 5000);
  t.same(heard, [{ t: 'hello', version: WIRE_VERSION, role: 'query', chooser: true, term: 'xterm-kitty' }]);
  // a run that ended meanwhile: nothing thrown
  tellChooserListed(join(dir, 'gone00.sock'), undefined);
  await new Promise((r) => setTimeout(r, 100));
});
