// Claude's echo drawn by the relay's thread into a split view's session pane, before JavaScript has parsed
// it (fast-relay.c). After each frame JavaScript says where the pane's cursor is and that nothing on the
// terminal or in the emulator stands in the way (src/core/screen/echo-path.ts decides that: the cursor shown
// in claude's pane, the default pen, no insert mode, no scroll region, everything parsed); the thread then
// writes output that is plain printable ASCII where the emulator will put it, wrapping at the pane's
// width as the emulator does, and gives up (JavaScript draws it, as before) on anything else: an escape,
// a control, a byte of UTF-8, a wrap on the pane's last row (the emulator scrolls there), a chunk longer than
// ECHO_MAX. JavaScript parses the same bytes a moment later and draws the rows again from its screen, so the
// terminal ends up as the emulator says whatever was written here.
#ifndef FLOWER_PTY_ECHO_PATH_H
#define FLOWER_PTY_ECHO_PATH_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

// An echo is a few characters (a paste's a few hundred); anything longer is not worth the thread's while.
#define ECHO_MAX 1024
// Each character may need a cursor move before it ("ESC [ row ; col H", rows and columns under 10^5).
#define ECHO_OUT_CAP (ECHO_MAX * 16)

typedef struct {
  int armed;
  uint64_t seq; // the last output the pane's state takes in: the thread draws only the very next one
  int x, y;     // the cursor in the pane (x == w: at the edge, the next character wraps)
  int w, h;     // the pane's columns and rows (claude's terminal size, all of it shown)
  int ox, oy;   // the pane's top-left cell on the person's terminal, 0-based
} echo_state;

// The bytes that draw `data` on the person's terminal, into `out` (ECHO_OUT_CAP bytes); 0 when the thread
// must leave it to JavaScript. On success the cursor in `s` has moved past it.
static size_t echo_plan(echo_state *s, const unsigned char *data, size_t len, char *out) {
  if (!s->armed || len == 0 || len > ECHO_MAX || s->w < 1 || s->h < 1 || s->x < 0 || s->x > s->w || s->y < 0 || s->y >= s->h) return 0;
  if (s->ox < 0 || s->oy < 0 || s->ox > 99998 || s->oy + s->h > 99999) return 0;
  int x = s->x, y = s->y;
  size_t at = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = data[i];
    if (c < 0x20 || c > 0x7e) return 0;
    if (x >= s->w) {
      // the emulator wraps to the next row's start; on its last row it would scroll the pane
      if (y + 1 >= s->h) return 0;
      y++;
      x = 0;
      int n = snprintf(out + at, ECHO_OUT_CAP - at, "\x1b[%d;%dH", s->oy + y + 1, s->ox + 1);
      if (n < 0 || (size_t)n >= ECHO_OUT_CAP - at) return 0;
      at += (size_t)n;
    }
    if (at >= ECHO_OUT_CAP) return 0;
    out[at++] = (char)c;
    x++;
  }
  s->x = x;
  s->y = y;
  return at;
}

// Whether a chunk ends inside a UTF-8 character: the decoder then holds its first bytes, and the next chunk
// is not what it seems (its first byte finishes or breaks that character).
static int utf8_cut(const unsigned char *p, size_t n) {
  for (size_t back = 1; back <= 4 && back <= n; back++) {
    unsigned char b = p[n - back];
    if ((b & 0xC0) == 0x80) continue; // a continuation byte: look further back
    size_t need = (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 1;
    return back < need;
  }
  return 0;
}

#endif
