// One run's feed in the web face (src/web/run-feed.ts), fed as the watcher connection feeds it: the
// feed holds no emulator; a page is painted from the run server's screen (the first paint's, or the
// answer to a `repaint` the feed asks for when its screen is stale), then streamed what came after that
// screen on the wire, in order; a page whose HTML was painted at the current count is not painted again;
// the end reaches every page.
import t from 'tap';
import { createRunFeed, type FeedMessage } from '../../src/web/run-feed.js';

function recorder() {
  const got: FeedMessage[] = [];
  const ends: string[] = [];
  return {
    got,
    ends,
    page: { show: (m: FeedMessage) => got.push(m), ended: (last: { reason: string }) => ends.push(last.reason) },
  };
}
const asker = () => {
  const asked = { count: 0 };
  return { asked, ask: () => void asked.count++ };
};

t.test(
  'a page waiting for a paint drops the output the answer holds, and is streamed what follows the answer, in order',
  async (t) => {
    const { asked, ask } = asker();
    const feed = createRunFeed(ask);
    feed.push({ t: 'child', state: 'started' });
    feed.push({ t: 'screen', data: 'hello', cols: 40, rows: 5 }); // the first paint
    feed.push({ t: 'output', data: ' world' });
    feed.push({ t: 'status', view: { phase: 'working' } as never });
    const a = recorder();
    feed.watch(a.page, null);
    t.equal(asked.count, 1, 'its screen is stale: the run is asked once');
    t.same(a.got, [], 'nothing until the answer');
    feed.push({ t: 'output', data: '!' }); // before the answer on the wire: the run server's screen has it
    feed.push({ t: 'message', text: 'note' });
    const b = recorder();
    feed.watch(b.page, null);
    t.equal(asked.count, 1, 'a second page waits on the same question');
    feed.push({ t: 'screen', data: 'hello world!', cols: 40, rows: 5 }); // the answer
    feed.push({ t: 'output', data: '?' });
    for (const p of [a, b]) {
      t.same(
        p.got.map((m) => m.t),
        ['child', 'screen', 'status', ...(p === a ? ['message'] : []), 'output'],
        'child state, screen, the latest status, a message held meanwhile, then live',
      );
      t.same(
        p.got.find((m) => m.t === 'screen'),
        { t: 'screen', data: 'hello world!', cols: 40, rows: 5 },
      );
      t.same(p.got.at(-1), { t: 'output', data: '?' }, 'only what came after the answer is streamed');
    }
    t.equal(feed.watchers, 2);
    feed.end({ reason: 'ended' });
  },
);

t.test('a page painted by its HTML at the current count gets no second screen; a stale one does', async (t) => {
  const { asked, ask } = asker();
  const feed = createRunFeed(ask);
  feed.push({ t: 'screen', data: 'x', cols: 20, rows: 3 });
  const shot = await feed.snapshot();
  t.equal(asked.count, 0, 'the first paint is current: nothing asked');
  t.equal(shot.seq, feed.seq);
  const fresh = recorder();
  feed.watch(fresh.page, shot.seq);
  t.notOk(
    fresh.got.some((m) => m.t === 'screen'),
    'unchanged since its HTML: no repaint',
  );
  feed.push({ t: 'output', data: 'y' });
  const stale = recorder();
  feed.watch(stale.page, shot.seq);
  const html = feed.snapshot();
  t.equal(asked.count, 1, 'changed since: the run is asked, once for the page and the HTML');
  feed.push({ t: 'screen', data: 'xy', cols: 20, rows: 3 });
  t.equal(stale.got[0]?.t, 'screen', 'painted again');
  t.same((await html).messages, [{ t: 'screen', data: 'xy', cols: 20, rows: 3 }]);
  t.equal((await html).seq, feed.seq);
  t.same(fresh.got.at(-1), { t: 'output', data: 'y' }, 'a live page is not repainted by an answer meant for others');
  feed.end({ reason: 'killed' });
  t.same([fresh.ends, stale.ends], [['killed'], ['killed']], 'the end reaches every page');
  t.equal(feed.watchers, 0);
  await t.rejects(feed.snapshot(), /ended/);
});

t.test('a snapshot waiting when the run ends is refused, and a page waiting is told the end', async (t) => {
  const feed = createRunFeed(() => undefined);
  const waiting = feed.snapshot(); // before the first paint
  const p = recorder();
  feed.watch(p.page, null);
  feed.end({ reason: 'gone' });
  await t.rejects(waiting, /ended/);
  t.same(p.ends, ['gone']);
});
