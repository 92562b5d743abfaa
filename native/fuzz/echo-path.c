// libFuzzer harness: the relay's echo plan (native/echo-path.h) on any pane and any sequence of chunks.
// The first six bytes place the cursor and the pane (sizes from 1), the rest is claude's output cut into
// chunks. Checks, on every chunk: the plan writes at most ECHO_OUT_CAP bytes; a chunk it takes comes out
// as itself with cursor moves between, one per wrap, each to the start of the next row of the pane (a grid
// kept here as the reference); the cursor stays in the pane; a chunk it refuses leaves the state as it was.
// utf8_cut reads every chunk too.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../echo-path.h"
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 6) return 0;
  echo_state s = {.armed = 1, .w = 1 + data[2] % 200, .h = 1 + data[3] % 60, .ox = data[4], .oy = data[5]};
  s.x = data[0] % (s.w + 2); // past the edge too: refused
  s.y = data[1] % (s.h + 1);
  chunks c = {data + 6, data + size};
  const uint8_t *chunk;
  size_t len;
  char *out = malloc(ECHO_OUT_CAP);
  CHECK(out);
  while (next_chunk(&c, &chunk, &len)) {
    (void)utf8_cut(chunk, len);
    echo_state before = s;
    size_t n = echo_plan(&s, chunk, len, out);
    CHECK(n <= ECHO_OUT_CAP);
    if (!n) {
      CHECK(memcmp(&before, &s, sizeof s) == 0);
      continue;
    }
    // the reference: walk the chunk on the pane's grid, the output alongside
    int x = before.x, y = before.y;
    size_t at = 0;
    for (size_t i = 0; i < len; i++) {
      CHECK(chunk[i] >= 0x20 && chunk[i] <= 0x7e);
      if (x >= before.w) {
        y++;
        x = 0;
        CHECK(y < before.h);
        char move[32];
        int m = snprintf(move, sizeof move, "\x1b[%d;%dH", before.oy + y + 1, before.ox + 1);
        CHECK(m > 0 && at + (size_t)m <= n && memcmp(out + at, move, (size_t)m) == 0);
        at += (size_t)m;
      }
      CHECK(at < n && out[at] == (char)chunk[i]);
      at++;
      x++;
    }
    CHECK(at == n);
    CHECK(s.x == x && s.y == y && s.x <= s.w && s.y < s.h);
  }
  free(out);
  return 0;
}
