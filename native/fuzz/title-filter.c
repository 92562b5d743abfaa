// libFuzzer harness: the relay's title filter (native/title-filter.h) on any sequence of chunks. Checks, on
// every chunk: what it holds stays within HELD_CAP; it lets out no more than it held and was given; what it
// lets out is the input with whole title sequences taken out (a subsequence, in order); and it decides as
// the plain reading of title-filter.ts does, which joins what it held and the chunk and reads it all again
// (kept here as the reference, on the same UTF-16 count).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../title-filter.h"
#include "harness.h"


// title-filter.ts's push() as written, on bytes: held + chunk joined and read from the start, every time.
typedef struct {
  char *held;
  size_t held_len;
} reference;

static size_t units_of(const char *s, size_t n) {
  utf8_count d;
  utf8_count_reset(&d);
  return utf8_units(&d, (const unsigned char *)s, n);
}

static size_t reference_push(reference *r, const char *chunk, size_t chunk_len, char *out) {
  size_t len = r->held_len + chunk_len;
  char *text = malloc(len + 1);
  CHECK(text);
  if (r->held_len) memcpy(text, r->held, r->held_len);
  if (chunk_len) memcpy(text + r->held_len, chunk, chunk_len);
  size_t o = 0, pos = 0, end_of_text = len, keep_at = 0, keep_len = 0;
  for (;;) {
    const char *found = NULL;
    for (size_t i = pos; i + 1 < len; i++)
      if (text[i] == '\x1b' && text[i + 1] == ']') {
        found = text + i;
        break;
      }
    if (!found) break;
    size_t start = (size_t)(found - text);
    char kind = start + 2 < len ? text[start + 2] : 0;
    int title_kind = kind == '0' || kind == '1' || kind == '2';
    if (start + 2 >= len || (start + 3 >= len && title_kind)) {
      keep_at = start, keep_len = len - start, end_of_text = start;
      break;
    }
    if (!(title_kind && text[start + 3] == ';')) {
      memcpy(out + o, text + pos, start + 2 - pos);
      o += start + 2 - pos;
      pos = start + 2;
      continue;
    }
    size_t end = len;
    for (size_t i = start + 4; end == len && i < len; i++) {
      if (text[i] == '\x07') end = i;
      else if (text[i] == '\x1b' && i + 1 < len && text[i + 1] == '\\') end = i + 1;
    }
    if (end == len) {
      if (units_of(text + start, len - start) > MAX_HELD) {
        memcpy(out + o, text + pos, len - pos);
        o += len - pos;
        pos = end_of_text = len;
      } else {
        keep_at = start, keep_len = len - start, end_of_text = start;
      }
      break;
    }
    memcpy(out + o, text + pos, start - pos);
    o += start - pos;
    pos = end + 1;
  }
  size_t rest = end_of_text > pos ? end_of_text - pos : 0;
  int lone_esc = rest > 0 && text[pos + rest - 1] == '\x1b';
  if (lone_esc) rest--;
  if (rest) memcpy(out + o, text + pos, rest);
  o += rest;
  char *held = malloc(keep_len + 2);
  CHECK(held);
  size_t h = 0;
  if (lone_esc) held[h++] = '\x1b';
  if (keep_len) memcpy(held + h, text + keep_at, keep_len);
  free(r->held);
  r->held = held;
  r->held_len = h + keep_len;
  free(text);
  return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  title_filter *f = malloc(sizeof *f);
  CHECK(f);
  title_filter_reset(f);
  reference ref = {NULL, 0};
  chunks c = {data, data + size};
  const uint8_t *chunk;
  size_t len, seen = 0;
  // every byte let out so far must come from the input, in order: `seen` walks the input's bytes
  const uint8_t *input = NULL;
  size_t input_len = 0;
  uint8_t *all = malloc(size + 1);
  CHECK(all);
  while (next_chunk(&c, &chunk, &len)) {
    if (len) memcpy(all + input_len, chunk, len);
    input = all;
    input_len += len;
    size_t before = f->held_len;
    char *out = malloc(HELD_CAP + len + 1);
    char *expected = malloc(ref.held_len + len + 2);
    CHECK(out && expected);
    size_t n = title_filter_push(f, (const char *)chunk, len, out);
    size_t m = reference_push(&ref, (const char *)chunk, len, expected);
    CHECK(f->held_len <= HELD_CAP);
    CHECK(n <= before + len);
    CHECK(n == m && memcmp(out, expected, n) == 0);
    CHECK(f->held_len == ref.held_len && memcmp(f->held, ref.held, f->held_len) == 0);
    for (size_t i = 0; i < n; i++) {
      while (seen < input_len && input[seen] != (uint8_t)out[i]) seen++;
      CHECK(seen < input_len);
      seen++;
    }
    free(out);
    free(expected);
  }
  free(all);
  free(ref.held);
  free(f);
  return 0;
}
