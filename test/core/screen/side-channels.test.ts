// What claude tells a terminal besides the screen: clipboard writes and notifications passed, a clipboard
// read never; the kitty keyboard flags stack and modifyOtherKeys kept; the modes a child leaves on undone.
import t from 'tap';
import { createKeyboardState, sideChannel } from '../../../src/core/screen/side-channels.js';
import { createModeTracker } from '../../../src/core/screen/terminal-modes.js';

t.test('sideChannel: clipboard writes and notifications pass, reads and junk do not', async (t) => {
  t.equal(sideChannel(52, 'c;aGVsbG8='), '\u001b]52;c;aGVsbG8=\u0007');
  t.equal(sideChannel(52, 'c;?'), null, 'a read is never passed');
  t.equal(sideChannel(52, 'c;not base64!'), null);
  t.equal(sideChannel(52, 'nothing'), null);
  t.equal(sideChannel(9, 'Claude needs you'), '\u001b]9;Claude needs you\u0007');
  t.equal(sideChannel(777, 'notify;Claude;done'), '\u001b]777;notify;Claude;done\u0007');
  t.equal(sideChannel(99, 'i=1:d=0;hello'), '\u001b]99;i=1:d=0;hello\u0007');
  t.equal(sideChannel(9, 'a\u001b]0;x'), null, 'a control character inside: not passed');
  t.equal(sideChannel(4, '1;rgb:00/00/00'), null, 'other OSCs are not side channels');
});

t.test('keyboard state: push, pop, set, modifyOtherKeys, reset', async (t) => {
  const k = createKeyboardState();
  t.same(k.modes, { kitty: 0, modifyOtherKeys: 0 });
  k.push(1);
  k.push(3);
  t.equal(k.modes.kitty, 3);
  k.pop(1);
  t.equal(k.modes.kitty, 1);
  k.set(4, 2);
  t.equal(k.modes.kitty, 5, 'mode 2 adds');
  k.set(1, 3);
  t.equal(k.modes.kitty, 4, 'mode 3 removes');
  k.pop(5);
  t.equal(k.modes.kitty, 0, 'popping more than was pushed empties the stack');
  k.modifyOtherKeys(2);
  t.equal(k.modes.modifyOtherKeys, 2);
  k.reset();
  t.same(k.modes, { kitty: 0, modifyOtherKeys: 0 });
});

t.test(
  'the mode tracker undoes kitty pushes, modifyOtherKeys, the cursor shape and an open synchronized update',
  async (t) => {
    const m = createModeTracker();
    m.push('\u001b[>1u\u001b[>1u\u001b[<u\u001b[>4;2m\u001b[6 q\u001b[?2026h');
    t.equal(m.resetSequence(), '\u001b[?2026l\u001b[<1u\u001b[>4m\u001b[0 q\u001b[0m');
    const done = createModeTracker();
    done.push('\u001b[>1u\u001b[<u\u001b[>4;0m\u001b[0 q\u001b[?2026h\u001b[?2026l');
    t.equal(done.resetSequence(), '', 'everything already undone: nothing to say');
    const split = createModeTracker();
    split.push('\u001b[>');
    split.push('1u');
    t.equal(split.resetSequence(), '\u001b[<1u\u001b[0m', 'a push cut between two reads');
  },
);
