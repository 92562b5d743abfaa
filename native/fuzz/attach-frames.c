// libFuzzer harness: the attach client's frame reader and member readers (native/attach-client.c, over
// native/json-text.h) on any sequence of chunks from the server's socket, and on any bytes as one frame's
// JSON. Checks what the client then acts on: a frame is whole and within MAX_FRAME, a string it reads as a
// C string holds no NUL, a bye's exit status is one (0 to 255), an edit has a path. Built by
// scripts/fuzz.mjs with the words from src/ (native-defines.mjs).
#define FLOWER_PTY_FUZZING 1
#include "../attach-client.c"
#include "harness.h"


static void check_message(const char *json, size_t len) {
  server_msg m;
  read_message(json, len, &m);
  if (m.kind == MSG_WELCOME) CHECK(m.run_id != NULL);
  if (m.kind == MSG_BYE) CHECK(m.exit_code >= 0 && m.exit_code <= 255);
  if (m.kind == MSG_EDIT) CHECK(m.path != NULL);
  if (m.kind != MSG_BAD) CHECK(m.t != NULL);
  free_message(&m);
  long n;
  if (whole_member(json, len, "exitCode", 0, 255, &n)) CHECK(n >= 0 && n <= 255);
  size_t text_len = 0;
  char *text = text_member(json, len, "message", &text_len);
  free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // the input as one frame's JSON (a frame is NUL-terminated after its bytes)
  char *whole = malloc(size + 1);
  CHECK(whole);
  if (size) memcpy(whole, data, size);
  whole[size] = 0;
  check_message(whole, size);
  free(whole);
  // the input as the socket's reads
  buf in = {0};
  chunks c = {data, data + size};
  const uint8_t *chunk;
  size_t len;
  int garbage = 0;
  while (!garbage && next_chunk(&c, &chunk, &len)) {
    put(&in, (const char *)chunk, len);
    char *json;
    size_t n;
    int got;
    while ((got = next_frame(&in, &json, &n)) > 0) {
      CHECK(n <= MAX_FRAME && json[n] == 0);
      check_message(json, n);
      free(json);
    }
    garbage = got < 0;
  }
  free(in.data);
  return 0;
}
