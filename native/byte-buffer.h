// A growing byte buffer, always NUL-terminated, for the native clients (hook-client.c, attach-client.c).
// Each says what running out of memory means for it before including this: BUF_OUT_OF_MEMORY().
#ifndef FLOWER_PTY_BYTE_BUFFER_H
#define FLOWER_PTY_BYTE_BUFFER_H
#include <stdlib.h>
#include <string.h>

#ifndef BUF_OUT_OF_MEMORY
#error "define BUF_OUT_OF_MEMORY() before including byte-buffer.h"
#endif

typedef struct {
  char *data;
  size_t len, cap;
} buf;

static void put(buf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n + 1) cap *= 2;
    char *grown = realloc(b->data, cap);
    if (!grown) BUF_OUT_OF_MEMORY();
    b->data = grown;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}

#endif
