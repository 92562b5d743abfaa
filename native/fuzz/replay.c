// Runs a harness's LLVMFuzzerTestOneInput on each file named, without libFuzzer: the checked-in corpus
// (native/fuzz/corpus/<target>/) replayed under AddressSanitizer and UBSan by a plain compiler
// (test/native/fuzz-corpus.test.ts, scripts/fuzz.mjs --replay). Exits non-zero at the first failure.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (!f) {
      fprintf(stderr, "replay: cannot open %s\n", argv[i]);
      return 2;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *data = malloc(cap);
    size_t n;
    while (data && (n = fread(data + len, 1, cap - len, f)) > 0) {
      len += n;
      if (len == cap) data = realloc(data, cap *= 2);
    }
    fclose(f);
    if (!data) return 2;
    // an exact-size copy, so a read past the input's end is caught
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) return 2;
    for (size_t k = 0; k < len; k++) exact[k] = data[k];
    free(data);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
  }
  printf("replayed %d input(s)\n", argc - 1);
  return 0;
}
