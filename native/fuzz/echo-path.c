// libFuzzer harness: the relay's echo plan (native/echo-path.h) on any pane and any sequence of chunks.
// The first seven bytes place the cursor and the pane (sizes from 1) and say whether the terminal takes
// synchronized output and whether the plan has what is beside the pane (so may scroll it); the rest is
// claude's output cut into chunks. The plan's bytes are played on a terminal kept here (cursor moves, the
// scroll region, line feeds, text; anything else is a failure), every cell of it marked, and checked on
// every chunk against a reference: claude's screen (the pane) with the chunk written into it, wrapping and
// scrolling as xterm does. Checks: the plan writes at most ECHO_PLAN_CAP bytes; a chunk it takes leaves the
// pane as the reference, every cell beside the pane as it was, the terminal's cursor where claude's is, and
// the terminal's scroll region whole; a chunk it refuses leaves the state as it was, and it refuses exactly
// what it cannot draw. utf8_cut reads every chunk too.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../echo-path.h"
#include "harness.h"

// a terminal of W × H cells, its cursor and scroll region (rows top..bottom)
typedef struct {
  int W, H, x, y, top, bottom;
  char *cell;
} screen;

static char mark(int x, int y) { return (char)('A' + (x * 7 + y * 3) % 58); }

// The number in an escape's parameters at *p (0 when none), past it.
static int number(const char **p, const char *end) {
  int n = 0;
  while (*p < end && **p >= '0' && **p <= '9') n = n * 10 + (*(*p)++ - '0');
  return n;
}

// Plays what the plan wrote on the terminal: only what a plan may write is understood.
static void play(screen *t, const char *p, const char *end) {
  while (p < end) {
    char c = *p++;
    if (c == '\n') {
      if (t->y == t->bottom) {
        memmove(t->cell + (size_t)t->top * t->W, t->cell + (size_t)(t->top + 1) * t->W, (size_t)(t->bottom - t->top) * t->W);
        memset(t->cell + (size_t)t->bottom * t->W, ' ', (size_t)t->W);
      } else {
        CHECK(t->y + 1 < t->H);
        t->y++;
      }
      continue;
    }
    if (c == '\r') {
      t->x = 0;
      continue;
    }
    if (c != '\x1b') {
      CHECK(c >= 0x20 && c <= 0x7e && t->x < t->W && t->y < t->H);
      t->cell[(size_t)t->y * t->W + t->x] = c;
      t->x++;
      continue;
    }
    CHECK(p < end && *p++ == '[');
    int private = p < end && *p == '?';
    if (private) p++;
    int a = number(&p, end), b = 0, two = 0;
    if (p < end && *p == ';') {
      p++;
      b = number(&p, end);
      two = 1;
    }
    CHECK(p < end);
    char final = *p++;
    if (private) {
      CHECK(a == 2026 && (final == 'h' || final == 'l') && !two);
    } else if (final == 'H') {
      CHECK(two && a >= 1 && a <= t->H && b >= 1 && b <= t->W);
      t->y = a - 1;
      t->x = b - 1;
    } else if (final == 'r') {
      // DECSTBM: the region (or the whole screen), the cursor home
      if (!two) {
        CHECK(a == 0);
        t->top = 0;
        t->bottom = t->H - 1;
      } else {
        CHECK(a >= 1 && a < b && b <= t->H);
        t->top = a - 1;
        t->bottom = b - 1;
      }
      t->x = t->y = 0;
    } else {
      CHECK(final == 'm' && !two); // the colours beside the pane
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 7) return 0;
  echo_state s = {.armed = 1, .w = 1 + data[2] % 200, .h = 1 + data[3] % 60, .ox = data[4] % 16, .oy = data[5] % 16, .sync = data[6] & 1};
  s.x = data[0] % (s.w + 2); // past the edge too: refused
  s.y = data[1] % (s.h + 1);
  int can_scroll = (data[6] & 2) != 0;
  // the terminal: the pane with columns beside it on both sides and rows above and below
  screen t = {.W = s.ox + s.w + 3, .H = s.oy + s.h + 2};
  t.bottom = t.H - 1;
  t.cell = malloc((size_t)t.W * t.H);
  char *was = malloc((size_t)t.W * t.H);
  char *pane = malloc((size_t)s.w * s.h); // claude's screen
  char *beside = malloc(ECHO_BESIDE_MAX);
  char *out = malloc(ECHO_PLAN_CAP);
  CHECK(t.cell && was && pane && beside && out);
  for (int y = 0; y < t.H; y++)
    for (int x = 0; x < t.W; x++) t.cell[(size_t)y * t.W + x] = mark(x, y);
  for (int y = 0; y < s.h; y++)
    for (int x = 0; x < s.w; x++) pane[(size_t)y * s.w + x] = mark(s.ox + x, s.oy + y);
  memcpy(was, t.cell, (size_t)t.W * t.H);
  // what is beside the pane on its rows, as the face makes it (row-painter.ts paintBeside)
  size_t beside_len = 0;
  for (int y = s.oy; y < s.oy + s.h && can_scroll; y++) {
    beside_len += (size_t)snprintf(beside + beside_len, ECHO_BESIDE_MAX - beside_len, "\x1b[%d;1H\x1b[36m", y + 1);
    for (int x = 0; x < s.ox; x++) beside[beside_len++] = mark(x, y);
    beside_len += (size_t)snprintf(beside + beside_len, ECHO_BESIDE_MAX - beside_len, "\x1b[%d;%dH", y + 1, s.ox + s.w + 1);
    for (int x = s.ox + s.w; x < t.W; x++) beside[beside_len++] = mark(x, y);
    beside_len += (size_t)snprintf(beside + beside_len, ECHO_BESIDE_MAX - beside_len, "\x1b[m");
  }
  if (can_scroll) {
    s.beside = beside;
    s.beside_len = beside_len;
  }
  // the terminal's cursor where a frame leaves it: claude's, in the pane (past its last column at the edge)
  t.x = s.ox + (s.x <= s.w ? s.x : 0);
  t.y = s.oy + (s.y < s.h ? s.y : 0);
  chunks c = {data + 7, data + size};
  const uint8_t *chunk;
  size_t len;
  while (next_chunk(&c, &chunk, &len)) {
    (void)utf8_cut(chunk, len);
    echo_state before = s;
    size_t n = echo_plan(&s, chunk, len, out);
    CHECK(n <= ECHO_PLAN_CAP);
    // the reference: what the plan can draw, and where it leaves claude's cursor
    int plain = len > 0 && len <= ECHO_MAX && before.x >= 0 && before.x <= before.w && before.y >= 0 && before.y < before.h;
    for (size_t i = 0; i < len && plain; i++) plain = chunk[i] >= 0x20 && chunk[i] <= 0x7e;
    int x = before.x, y = before.y, scroll = 0;
    for (size_t i = 0; i < len && plain; i++) {
      if (x >= before.w) {
        if (y + 1 >= before.h) scroll++;
        else y++;
        x = 0;
      }
      x++;
    }
    int start = before.y - scroll;
    int drawable = plain && (!scroll || (can_scroll && before.h >= 2 && (start >= 0 || (start == -1 && before.x >= before.w))));
    CHECK(!n == !drawable);
    if (!n) {
      CHECK(memcmp(&before, &s, sizeof s) == 0);
      continue;
    }
    // claude's screen with the chunk written in it
    x = before.x;
    y = before.y;
    for (size_t i = 0; i < len; i++) {
      if (x >= before.w) {
        x = 0;
        if (y + 1 < before.h) y++;
        else {
          memmove(pane, pane + before.w, (size_t)(before.h - 1) * before.w);
          memset(pane + (size_t)(before.h - 1) * before.w, ' ', (size_t)before.w);
        }
      }
      pane[(size_t)y * before.w + x] = (char)chunk[i];
      x++;
    }
    play(&t, out, out + n);
    for (int ty = 0; ty < t.H; ty++)
      for (int tx = 0; tx < t.W; tx++) {
        int px = tx - s.ox, py = ty - s.oy;
        int in_pane = px >= 0 && px < s.w && py >= 0 && py < s.h;
        CHECK(t.cell[(size_t)ty * t.W + tx] == (in_pane ? pane[(size_t)py * s.w + px] : was[(size_t)ty * t.W + tx]));
      }
    CHECK(s.x == x && s.y == y && s.x <= s.w && s.y < s.h);
    CHECK(t.x == s.ox + x && t.y == s.oy + y);
    CHECK(t.top == 0 && t.bottom == t.H - 1);
  }
  free(t.cell);
  free(was);
  free(pane);
  free(beside);
  free(out);
  return 0;
}
