// What a run page does with claude's side channels: which links it opens, the text of a clipboard
// write (never a read), a notification's title and body.
import t from 'tap';
import { clipboardText, notificationOf, openableLink } from '../../../src/core/web/web-side-channels.js';

t.test('openableLink: http, https and file only', async (t) => {
  t.equal(openableLink('https://example.com/a?b=1'), 'https://example.com/a?b=1');
  t.equal(openableLink('http://127.0.0.1:8/x'), 'http://127.0.0.1:8/x');
  t.equal(openableLink('file:///tmp/x.ts'), 'file:///tmp/x.ts');
  for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'vbscript:x', 'ssh://host', 'https://a\u0007b'])
    t.equal(openableLink(bad), null, bad);
});

t.test('clipboardText: the decoded write; a read or junk is nothing', async (t) => {
  t.equal(clipboardText('c;SGVsbG8sIOS4lueVjA=='), 'Hello, 世界');
  t.equal(clipboardText('c;?'), null);
  t.equal(clipboardText('c;'), null);
  t.equal(clipboardText('c;not base64!'), null);
  t.equal(clipboardText('no separator'), null);
});

t.test('notificationOf: OSC 9, 777 notify, 99; a progress report is not one', async (t) => {
  t.same(notificationOf(9, 'Claude needs you'), { title: 'claude', body: 'Claude needs you' });
  t.equal(notificationOf(9, '4;1;50'), null, 'OSC 9;4 is a progress bar');
  t.same(notificationOf(777, 'notify;Claude Code;done; really'), { title: 'Claude Code', body: 'done; really' });
  t.equal(notificationOf(777, 'other;x'), null);
  t.same(notificationOf(99, 'i=1:d=0;hello'), { title: 'claude', body: 'hello' });
  t.equal(notificationOf(52, 'x'), null);
});
