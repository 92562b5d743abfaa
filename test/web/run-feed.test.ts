// One run's feed in the web face (src/web/run-feed.ts), fed as the watcher connection feeds it: a page
// is painted from the feed's own screen, then streamed what came after its paint, in order; a page
// whose HTML was painted at the current count is not painted again; the end reaches every page.
import t from 'tap';
import { createRunFeed, type FeedMessage } from '../../src/web/run-feed.js';

function recorder() {
  const got: FeedMessage[] = [];
  const ends: string[] = [];
  return { got, ends, page: { show: (m: FeedMessage) => got.push(m), ended: (last: { reason: string }) => ends.push(last.reason) } };
}
const settle = () => new Promise((r) => setTimeout(r, 50));

t.test('a page is painted from the feed\'s screen, then streamed what came after, in order', async (t) => {
  const feed = createRunFeed();
  feed.push({ t: 'screen', data: 'hello', cols: 40, rows: 5 });
  feed.push({ t: 'output', data: ' world' });
  feed.push({ t: 'status', view: { phase: 'working' } as never });
  const a = recorder();
  feed.watch(a.page, null);
  feed.push({ t: 'output', data: '!' }); // while the paint is taken: held, then after it
  await settle();
  t.equal(a.got[0]?.t, 'screen');
  t.match((a.got[0] as { data: string }).data, /hello world/, 'the screen holds what came before the paint');
  t.notMatch((a.got[0] as { data: string }).data, /!/, 'and nothing after it');
  t.same(a.got.slice(1).map((m) => m.t), ['status', 'output'], 'the latest status, then what came meanwhile');
  feed.push({ t: 'output', data: '?' });
  t.same(a.got.at(-1), { t: 'output', data: '?' }, 'then live');
  t.equal(feed.watchers, 1);
  feed.end({ reason: 'ended' });
});

t.test('a page painted by its HTML at the current count gets no second screen; a stale one does', async (t) => {
  const feed = createRunFeed();
  feed.push({ t: 'screen', data: 'x', cols: 20, rows: 3 });
  const shot = await feed.snapshot();
  t.equal(shot.seq, feed.seq);
  const fresh = recorder();
  feed.watch(fresh.page, shot.seq);
  t.notOk(fresh.got.some((m) => m.t === 'screen'), 'unchanged since its HTML: no repaint');
  feed.push({ t: 'output', data: 'y' });
  const stale = recorder();
  feed.watch(stale.page, shot.seq);
  await settle();
  t.equal(stale.got[0]?.t, 'screen', 'changed since: painted again');
  t.same(fresh.got.at(-1), { t: 'output', data: 'y' });
  feed.end({ reason: 'killed' });
  t.same([fresh.ends, stale.ends], [['killed'], ['killed']], 'the end reaches every page');
  t.equal(feed.watchers, 0);
});
