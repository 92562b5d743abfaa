// A run page's address segment (core/web/page-address.ts): a run id here, HOST:ID (URL-encoded) on
// another machine; anything else names no run.
import t from 'tap';
import { runKeyOfSegment } from '../../../src/core/web/page-address.js';

t.test('a run id names a run here', async (t) => {
  t.equal(runKeyOfSegment('ab12cd34'), 'ab12cd34');
});

t.test('HOST:ID, URL-encoded, names a run on another machine', async (t) => {
  t.equal(runKeyOfSegment(encodeURIComponent('box:ab12cd34')), 'box:ab12cd34');
});

t.test('anything else names no run', async (t) => {
  t.equal(runKeyOfSegment(undefined), null, 'no segment');
  t.equal(runKeyOfSegment('%E0%A4%A'), null, 'a malformed escape');
  t.equal(runKeyOfSegment('not an id!'), null, 'not a run id');
  t.equal(runKeyOfSegment('x'.repeat(601)), null, 'too long');
  t.equal(
    runKeyOfSegment(encodeURIComponent('-oProxyCommand=x:ab12cd34')),
    null,
    'a host name ssh would take as a flag',
  );
});
