// Claude's echo drawn by the relay's thread into a split view's session pane, before JavaScript has parsed
// it (fast-relay.c). After each frame JavaScript says where the pane's cursor is and that nothing on the
// terminal or in the emulator stands in the way (src/core/screen/echo-path.ts decides that: the cursor shown
// in claude's pane, the default pen, no insert mode, no scroll region, everything parsed); the thread then
// writes output that is plain printable ASCII where the emulator will put it, wrapping at the pane's
// width as the emulator does, and gives up (JavaScript draws it, as before) on anything else: an escape,
// a control, a byte of UTF-8, a chunk longer than ECHO_MAX. JavaScript parses the same bytes a moment later
// and draws the rows again from its screen, so the terminal ends up as the emulator says whatever was
// written here.
//
// A wrap on the pane's last row scrolls the pane, as the emulator does (a paste at the bottom of claude's
// screen). The pane shares its rows with the document pane and the borders, and a terminal scrolls whole
// rows (DECSTBM's region has no sides on a terminal without left and right margins), so the thread scrolls
// the pane's rows and then puts back what was beside the pane in them: bytes JavaScript made from what the
// terminal shows there (`beside`) when it armed the pane. No `beside`, no scroll: JavaScript draws it.
#ifndef FLOWER_PTY_ECHO_PATH_H
#define FLOWER_PTY_ECHO_PATH_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// An echo is a few characters (a paste's a few hundred); anything longer is not worth the thread's while.
#define ECHO_MAX 1024
// Each character may need a cursor move before it ("ESC [ row ; col H", rows and columns under 10^5).
#define ECHO_OUT_CAP (ECHO_MAX * 16)
// What was beside the pane on its rows, put back after a scroll: a large terminal's document pane, with
// its colours, is a few KiB; past this the pane is not scrolled here.
#define ECHO_BESIDE_MAX 32768
// The scroll's own escapes around it: a synchronized update, the region, a cursor move, the line feeds
// (at most ECHO_MAX / 1 of them), the region reset.
#define ECHO_SCROLL_CAP (64 + ECHO_MAX)
// All a plan may write.
#define ECHO_PLAN_CAP (ECHO_OUT_CAP + ECHO_BESIDE_MAX + ECHO_SCROLL_CAP)

typedef struct {
  int armed;
  uint64_t seq; // the last output the pane's state takes in: the thread draws only the very next one
  int x, y;     // the cursor in the pane (x == w: at the edge, the next character wraps)
  int w, h;     // the pane's columns and rows (claude's terminal size, all of it shown)
  int ox, oy;   // the pane's top-left cell on the person's terminal, 0-based
  int sync;     // the terminal takes synchronized output: a scroll is drawn as one update
  // what redraws the cells beside the pane on its rows (NULL: the pane is not scrolled here); the
  // caller owns it and keeps it as long as the state is armed
  const char *beside;
  size_t beside_len;
} echo_state;

// Appends `n` bytes to `out` (ECHO_PLAN_CAP bytes) at *at; 0 when they do not fit.
static int echo_put(char *out, size_t *at, const char *bytes, size_t n) {
  if (n > ECHO_PLAN_CAP - *at) return 0;
  memcpy(out + *at, bytes, n);
  *at += n;
  return 1;
}

// A cursor move to the pane's row y, column x (0-based).
static int echo_move(char *out, size_t *at, const echo_state *s, int y, int x) {
  char move[32];
  int n = snprintf(move, sizeof move, "\x1b[%d;%dH", s->oy + y + 1, s->ox + x + 1);
  return n > 0 && (size_t)n < sizeof move && echo_put(out, at, move, (size_t)n);
}

// The bytes that draw `data` on the person's terminal, into `out` (ECHO_PLAN_CAP bytes); 0 when the thread
// must leave it to JavaScript. On success the cursor in `s` has moved past it.
static size_t echo_plan(echo_state *s, const unsigned char *data, size_t len, char *out) {
  if (!s->armed || len == 0 || len > ECHO_MAX || s->w < 1 || s->h < 1 || s->x < 0 || s->x > s->w || s->y < 0 || s->y >= s->h) return 0;
  if (s->ox < 0 || s->oy < 0 || s->ox > 99998 || s->oy + s->h > 99999) return 0;
  // where the text ends: each wrap on the last row scrolls the pane a row
  int x = s->x, y = s->y, scroll = 0;
  for (size_t i = 0; i < len; i++) {
    if (data[i] < 0x20 || data[i] > 0x7e) return 0;
    if (x >= s->w) {
      if (y + 1 >= s->h) scroll++;
      else y++;
      x = 0;
    }
    x++;
  }
  size_t at = 0;
  y = s->y - scroll; // the start row once scrolled (above the pane: the wrap coming first brings it back)
  x = s->x;
  if (scroll) {
    // the pane's text must stay in it, and what was beside it must be known
    if (!s->beside || s->beside_len > ECHO_BESIDE_MAX || s->h < 2 || y < -1 || (y == -1 && x < s->w)) return 0;
    char head[64];
    int n = snprintf(head, sizeof head, "%s\x1b[%d;%dr\x1b[%d;%dH", s->sync ? "\x1b[?2026h" : "", s->oy + 1, s->oy + s->h, s->oy + s->h, s->ox + 1);
    if (n <= 0 || (size_t)n >= sizeof head || !echo_put(out, &at, head, (size_t)n)) return 0;
    // a line feed on the region's last row scrolls the region (and the terminal's whole rows in it)
    for (int i = 0; i < scroll; i++)
      if (!echo_put(out, &at, "\n", 1)) return 0;
    if (!echo_put(out, &at, "\x1b[r", 3) || !echo_put(out, &at, s->beside, s->beside_len)) return 0;
    if (x < s->w && !echo_move(out, &at, s, y, x)) return 0;
  }
  for (size_t i = 0; i < len; i++) {
    if (x >= s->w) {
      y++;
      x = 0;
      if (!echo_move(out, &at, s, y, x)) return 0;
    }
    if (!echo_put(out, &at, (const char *)data + i, 1)) return 0;
    x++;
  }
  if (scroll && s->sync && !echo_put(out, &at, "\x1b[?2026l", 8)) return 0;
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
