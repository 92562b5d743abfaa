// The split view's frame pacing: an echo after a quiet moment at once, a flood once a frame, a slow terminal skipped.
import t from 'tap';
import {
  FIRST_PACE,
  FLOOD_STREAK,
  FRAME_MS,
  QUICK_GAP_MS,
  frameDrawn,
  frameDue,
  keyTyped,
  requestFrame,
  type PaceState,
} from '../../../src/core/screen/frame-pacing.js';

// Drives the rule as the scheduler does: each chunk is one request, drawn where the timing says.
function stream(times: number[], atOnce = true): number[] {
  let pace: PaceState = FIRST_PACE;
  let due: number | null = null; // a frame pending at this time
  let pending = 0;
  const drawn: number[] = [];
  const draw = (at: number) => {
    pace = frameDrawn(pace, at, pending);
    pending = 0;
    drawn.push(at);
  };
  for (const now of times) {
    if (due !== null && due <= now) {
      draw(due);
      due = null;
    }
    pending++;
    if (due !== null) continue;
    const { state, timing } = requestFrame(pace, now, atOnce);
    pace = state;
    if (timing.type === 'now') draw(now);
    else due = now + (timing.type === 'after' ? timing.ms : 0);
  }
  if (due !== null) draw(due);
  return drawn;
}

t.test('an echo after a quiet moment is drawn at once, however recent the output before the quiet', async (t) => {
  t.same(requestFrame(FIRST_PACE, 0, true).timing, { type: 'now' });
  const after = frameDrawn(FIRST_PACE, 100, 1);
  t.same(requestFrame(after, 100 + FRAME_MS, true).timing, { type: 'now' }, 'a frame after the last frame');
  t.same(
    requestFrame(after, 100 + FRAME_MS, false).timing,
    { type: 'next-turn' },
    'only a caller that may draw where it is draws now',
  );
  t.same(
    requestFrame(after, 100 + QUICK_GAP_MS - 1, true).timing,
    { type: 'next-turn' },
    'just after a frame: the next turn, with whatever else comes',
  );
  t.same(stream([0, 40, 80, 120]), [0, 40, 80, 120], 'keys typed apart: every echo at once');
});

t.test('a key typed just after a frame: its echo is drawn at once all the same, and only the echo', async (t) => {
  const after = frameDrawn(FIRST_PACE, 100, 1);
  const typed = keyTyped(after);
  const echo = requestFrame(typed, 100 + QUICK_GAP_MS / 4, true);
  t.same(echo.timing, { type: 'now' }, 'the echo, a quarter of the quick gap after the last frame');
  t.same(
    requestFrame(typed, 100 + QUICK_GAP_MS / 4, false).timing,
    { type: 'next-turn' },
    'still only where the caller may draw',
  );
  const drawn = frameDrawn(echo.state, 100 + QUICK_GAP_MS / 4, 1);
  t.same(
    requestFrame(drawn, 100 + QUICK_GAP_MS / 2, true).timing,
    { type: 'next-turn' },
    'output after the echo, with no key since: the next turn again',
  );
});

t.test('output that keeps coming is drawn once a frame, not once a chunk', async (t) => {
  const chunks = Array.from({ length: 200 }, (_, i) => i * 0.5); // a chunk every half millisecond for 100 ms
  const drawn = stream(chunks);
  t.ok(drawn.length <= FLOOD_STREAK + 100 / FRAME_MS + 2, `${drawn.length} frames for 200 chunks`);
  const gaps = drawn.slice(FLOOD_STREAK + 1).map((at, i) => at - drawn[FLOOD_STREAK + i]!);
  t.ok(gaps.length > 3 && gaps.every((gap) => gap >= FRAME_MS), `a frame apart once it is a flood: ${gaps.join(', ')}`);
  t.equal(drawn.at(-1)! >= chunks.at(-1)!, true, 'the last chunk is drawn');
  // after the flood, a quiet moment: the next echo is at once again
  t.same(stream([...chunks, 200]).at(-1), 200);
});

t.test('a terminal that has not taken the last frame waits a frame more in a flood, never for an echo', async (t) => {
  const flood: PaceState = { last: 0, streak: FLOOD_STREAK, busy: true, typed: false };
  t.same(frameDue(flood, true), { draw: false, ms: FRAME_MS });
  t.same(frameDue(flood, false), { draw: true });
  t.same(frameDue(FIRST_PACE, true), { draw: true }, 'an echo is drawn even to a terminal still taking a frame');
});

t.test('a key typed in a flood: its echo is drawn at once, and the flood is paced again after', async (t) => {
  let pace: PaceState = FIRST_PACE;
  for (let now = 0; now < 10; now++) pace = frameDrawn(requestFrame(pace, now, true).state, now, 1);
  t.equal(requestFrame(pace, 10, true).timing.type, 'after', 'a flood');
  pace = keyTyped(pace);
  t.same(requestFrame(pace, 12, true).timing, { type: 'now' }, 'the echo, a moment later');
  t.same(frameDue(pace, true), { draw: true }, 'even to a terminal still taking a frame');
});
