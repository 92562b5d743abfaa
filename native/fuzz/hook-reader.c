// libFuzzer harness: the hook client's readers (native/hook-client.c) on any bytes: the payload's check and
// compact copy (what goes to the run), the answer's "output", FLOWER_PTY_HOOK_TIMEOUT_MS. Checks that a copy
// is itself a payload the client takes and copies to the same bytes, and that the wait stays within its
// ceiling. Built by scripts/fuzz.mjs with the limits from src/ (native-defines.mjs).
#define FLOWER_PTY_FUZZING 1
#include "../hook-client.c"
#include <stdio.h>
#include "harness.h"


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  buf copy = {0}, again = {0}, output = {0};
  if (compact_object((const char *)data, size, &copy)) {
    CHECK(copy.len <= size); // whitespace gone, and a number that becomes null was longer (1e310)
    CHECK(compact_object(copy.data, copy.len, &again));
    CHECK(again.len == copy.len && memcmp(again.data, copy.data, copy.len) == 0);
  }
  read_output((const char *)data, size, &output);
  char *text = malloc(size + 1);
  CHECK(text);
  if (size) memcpy(text, data, size);
  text[size] = 0;
  long wait = hook_timeout_ms(text);
  CHECK(wait >= 1 && wait <= MAX_TIMEOUT_MS);
  free(text);
  free(copy.data);
  free(again.data);
  free(output.data);
  return 0;
}
