// What an idle run server gives back to the system (dist/native/memory-trim.node; Linux only, elsewhere a
// no-op that says so). Two kinds of pages a quiet server holds for nothing:
//
// - The node binary's read-only pages it touched while starting: ELF tables the loader read, the start-up
//   snapshot V8 copied into its heap, the sources of Node's own modules it compiled, the code of whatever ran
//   once. A run server maps ~40 MB of them, against ~32 MB for a bare `node -e`, and an idle one uses few.
//   madvise(MADV_DONTNEED) on a private mapping drops this process's page-table entries; the pages stay in
//   the page cache (shared with every other node on the machine), and a page it uses again is mapped back
//   by a minor fault, no disk read. Safe only where the mapping's pages are all still the file's: a
//   read-only private mapping with no anonymous (copied-on-write) pages. The loader writes relocations
//   into RELRO segments before making them read-only; those have anonymous pages and are left alone
//   (dropping them would put the unrelocated bytes back and crash the process on its next call).
// - glibc's free lists: malloc_trim(0) returns freed heap memory that malloc keeps for later.
//
// Android does the same for its cached background apps (process_madvise with MADV_PAGEOUT); here the
// process does it to itself, and only its own executable's mappings: the shared libraries are small and
// hot (libc), so dropping them would cost more faults than it gives back.
#define NAPI_VERSION 8
#include <node_api.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#if defined(__linux__)
// The executable's read-only private mappings with no anonymous pages, advised away; returns the bytes of
// the mappings advised (what they held resident is for the caller to read in /proc/self/status).
static double drop_executable_pages(void) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return 0;
  exe[n] = '\0';
  FILE *smaps = fopen("/proc/self/smaps", "r");
  if (!smaps) return 0;
  char line[PATH_MAX + 256];
  unsigned long start = 0, end = 0;
  int candidate = 0;
  double advised = 0;
  while (fgets(line, sizeof line, smaps)) {
    unsigned long a, b;
    char perms[8];
    char path[PATH_MAX] = "";
    // A mapping's header line: "start-end perms offset dev inode path"; its fields (Rss:, Anonymous:, …) follow.
    if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %4095[^\n]", &a, &b, perms, path) >= 3) {
      start = a;
      end = b;
      candidate = strcmp(path, exe) == 0 && perms[1] == '-' && perms[3] == 'p';
      continue;
    }
    unsigned long anonymous;
    if (candidate && sscanf(line, "Anonymous: %lu kB", &anonymous) == 1) {
      if (anonymous == 0 && madvise((void *)start, end - start, MADV_DONTNEED) == 0) advised += (double)(end - start);
      candidate = 0;
    }
  }
  fclose(smaps);
  return advised;
}
#endif

#if defined(__linux__)
#define SUPPORTED 1
#else
#define SUPPORTED 0
#endif

// trim(): the bytes of the executable's mappings advised away (0 where this build cannot)
static napi_value trim(napi_env env, napi_callback_info info) {
  (void)info;
  double advised = 0;
#if defined(__linux__)
  advised = drop_executable_pages();
#endif
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
  napi_value out;
  napi_create_double(env, advised, &out);
  return out;
}

// exports: trim(), and `supported`: whether this build gives anything back (Linux)
NAPI_MODULE_INIT() {
  napi_value fn, supported;
  napi_create_function(env, "trim", NAPI_AUTO_LENGTH, trim, NULL, &fn);
  napi_set_named_property(env, exports, "trim", fn);
  napi_get_boolean(env, SUPPORTED, &supported);
  napi_set_named_property(env, exports, "supported", supported);
  return exports;
}
