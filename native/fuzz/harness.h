// What every harness in native/fuzz/ shares: CHECK, an invariant that aborts (libFuzzer keeps the input),
// and the split of a fuzz input into a sequence of chunks, as reads from a pipe or a pty would cut it:
// each chunk is a length byte and then that many bytes (fewer at the input's end). A length byte from 0xF0
// up means (byte - 0xEF) × 4096 bytes, so a few bytes of input can ask for a read as large as the relay's.
#ifndef FLOWER_PTY_FUZZ_HARNESS_H
#define FLOWER_PTY_FUZZ_HARNESS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                         \
  do {                                                                      \
    if (!(cond)) {                                                          \
      fprintf(stderr, "%s:%d: broken: %s\n", __FILE__, __LINE__, #cond);    \
      abort();                                                              \
    }                                                                       \
  } while (0)

typedef struct {
  const uint8_t *p, *end;
} chunks;

static int next_chunk(chunks *c, const uint8_t **data, size_t *len) {
  if (c->p >= c->end) return 0;
  uint8_t b = *c->p++;
  size_t want = b < 0xF0 ? b : (size_t)(b - 0xEF) * 4096;
  size_t left = (size_t)(c->end - c->p);
  *len = want < left ? want : left;
  *data = c->p;
  c->p += *len;
  return 1;
}

#endif
