// The ceiling on input waiting for claude: frames are admitted until what waits would pass it, refused
// whole after, and claude's next output (it read what waited) opens it again.
import t from 'tap';
import {
  createInputCeiling,
  inputRefusedLine,
  MAX_PENDING_INPUT_BYTES,
} from '../../../src/core/server/input-ceiling.js';

t.test('admitted up to the ceiling, refused whole past it, open again after claude writes', async (t) => {
  const c = createInputCeiling(10);
  t.ok(c.admit(6));
  t.ok(c.admit(4), 'exactly the ceiling');
  t.notOk(c.admit(1), 'one byte more is refused');
  t.equal(c.pending, 10, 'a refused frame is not counted');
  c.output();
  t.equal(c.pending, 0);
  t.notOk(c.admit(11), 'a frame larger than the ceiling is never admitted');
  t.ok(c.admit(10));
  t.equal(MAX_PENDING_INPUT_BYTES, 4 * 1024 * 1024, 'the stated ceiling (docs/security.md)');
  t.equal(
    inputRefusedLine(1024 * 1024, 4 * 1024 * 1024),
    'flower-pty: 1.0 MiB of input not sent: claude has not read the 4.0 MiB already waiting (at most 4.0 MiB may wait); it may be stopped or hung: type again once it answers',
  );
});
