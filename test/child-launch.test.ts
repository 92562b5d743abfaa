// The successor's positional prompt never carries the document: it names the hook's context or a private file.
import t from 'tap';
import { successorArgument, promptArgument } from '../src/claude-code/child-launch.js';

t.test('the short successor prompt', async (t) => {
  const viaHook = successorArgument({ file: '/tmp/flower-pty-run-x/successor-prompt-2.md', viaHook: true });
  t.match(viaHook, /TAKING OVER/);
  t.match(viaHook, /context of this message/);
  t.match(viaHook, /successor-prompt-2\.md/, 'the file, should the hook not run');
  t.notMatch(successorArgument({ file: null, viaHook: true }), /read the file/);
  t.match(successorArgument({ file: '/r/p.md', viaHook: false }), /read the file \/r\/p\.md now, in full/);
  t.throws(() => successorArgument({ file: null, viaHook: false }));
  t.same(promptArgument('short', '/x'), { arg: 'short', spill: false });
  t.equal(promptArgument('x'.repeat(200 * 1024), '/x').spill, true);
});
