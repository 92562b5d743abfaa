// The hook command claude runs on every hook and status line, natively: src/cli/hook-client.ts's twin, for
// the ~30 ms a Node start costs per call (a Stop hook, so a handoff, waits on it; so does every tool
// call's PostToolUse). It relays the hook's stdin to the run over the hook channel and prints the answer;
// for the status line it also runs the person's own command and prints that instead when it answers.
// The variable names and the status-line event come from src/claude-code/launch.ts: the build passes
// them in (scripts/build-native.mjs), so they have one home. Every failure prints nothing and exits 0:
// claude must never be stuck or scolded because of flower-pty.
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if !defined(HOOK_ENV_SOCKET) || !defined(HOOK_ENV_TOKEN) || !defined(HOOK_ENV_TIMEOUT_MS) || \
    !defined(HOOK_ENV_USER_STATUSLINE) || !defined(FLOWER_ENV_PREFIX) || !defined(STATUSLINE_EVENT)
#error "build with scripts/build-native.mjs: it passes the names from src/claude-code/launch.ts"
#endif
// Its limits come from src/cli/hook-limits.ts the same way: the wait for the run (its default and its
// ceiling), the person's status line's cap, the largest payload sent and its deepest nesting (MAX_DEPTH).
#if !defined(DEFAULT_TIMEOUT_MS) || !defined(MAX_TIMEOUT_MS) || !defined(USER_STATUSLINE_CAP_MS) || \
    !defined(MAX_PAYLOAD_BYTES) || !defined(MAX_DEPTH)
#error "build with scripts/build-native.mjs: it passes the limits from src/cli/hook-limits.ts"
#endif

extern char **environ;

#define BUF_OUT_OF_MEMORY() _exit(0) // every failure exits 0: claude must never be stuck on a hook
#include "byte-buffer.h"

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

// --- JSON (json-text.h): check that a payload is one object (JSON.parse would take it) and copy it
// without the whitespace between tokens, so it fits on the channel's one line; read the answer's "output".

#include "json-text.h"

// The payload as one line with no whitespace between tokens; 0 when it is not exactly one JSON object (or
// nests deeper than MAX_DEPTH, as the Node client refuses it too). A number too large for a double
// (1e999) is written null, as the Node client's JSON.stringify writes it.
static int compact_object(const char *data, size_t len, buf *out) {
  cursor c = {data, data + len};
  skip_ws(&c);
  if (c.p >= c.end || *c.p != '{' || !read_value(&c, out, 0)) return 0;
  skip_ws(&c);
  return c.p == c.end;
}

// FLOWER_PTY_HOOK_TIMEOUT_MS as hook-limits.ts's hookTimeoutMs reads it: digits alone, not 0, at most the ceiling.
static long hook_timeout_ms(const char *text) {
  if (!text || !*text) return DEFAULT_TIMEOUT_MS;
  long n = 0;
  for (const char *p = text; *p; p++) {
    if (*p < '0' || *p > '9') return DEFAULT_TIMEOUT_MS;
    if (n <= MAX_TIMEOUT_MS) n = n * 10 + (*p - '0'); // past the ceiling it only has to stay past it
  }
  if (n == 0) return DEFAULT_TIMEOUT_MS;
  return n > MAX_TIMEOUT_MS ? MAX_TIMEOUT_MS : n;
}

// The answer line's "output" when it is a string (the last one, as JSON.parse keeps it); else nothing.
static void read_output(const char *data, size_t len, buf *text) {
  cursor at;
  if (!find_member(data, len, "output", &at) || *at.p != '"') return;
  buf value = {0};
  if (read_string(&at, NULL, &value) && value.len) put(text, value.data, value.len);
  free(value.data);
}


// --- the person's own status line: `/bin/sh -c`, the same stdin, in its own session (the cap kills
// the whole pipeline, not just the shell), with no FLOWER_PTY_* variable (not the run's secret).

typedef struct {
  pid_t pid;
  int in, out; // its stdin (ours to write) and stdout (ours to read); -1 once closed
  size_t written;
  buf text;
  int exited, failed;
} user_line;

static int start_user_line(user_line *u, const char *command) {
  int in[2], out[2];
  if (pipe(in) < 0) return 0;
  if (pipe(out) < 0) {
    close(in[0]), close(in[1]);
    return 0;
  }
  size_t count = 0;
  for (char **e = environ; *e; e++) count++;
  char **env = calloc(count + 1, sizeof *env);
  if (!env) _exit(0);
  size_t kept = 0;
  for (char **e = environ; *e; e++)
    if (strncmp(*e, FLOWER_ENV_PREFIX, strlen(FLOWER_ENV_PREFIX)) != 0) env[kept++] = *e;
  u->pid = fork();
  if (u->pid == 0) {
    setsid();
    dup2(in[0], 0);
    dup2(out[1], 1);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, 2);
    for (int fd = 3; fd < 256; fd++) close(fd);
    execle("/bin/sh", "sh", "-c", command, (char *)NULL, env);
    _exit(127);
  }
  free(env);
  close(in[0]);
  close(out[1]);
  if (u->pid < 0) {
    close(in[1]), close(out[0]);
    return 0;
  }
  u->in = in[1];
  u->out = out[0];
  fcntl(u->in, F_SETFL, O_NONBLOCK);
  return 1;
}

static void leave_quietly(int sig) {
  (void)sig;
  _exit(0);
}

#ifndef FLOWER_PTY_FUZZING // native/fuzz/ calls the readers above without the program
int main(int argc, char **argv) {
  // claude stopped listening (EPIPE), a command that never reads its stdin: nothing to do about either.
  signal(SIGPIPE, SIG_IGN);
  signal(SIGALRM, leave_quietly); // the belt below: exit 0, not killed by a signal
  const char *event = argc > 1 ? argv[1] : "";
  const char *socket_path = getenv(HOOK_ENV_SOCKET);
  const char *token = getenv(HOOK_ENV_TOKEN);
  long timeout_ms = hook_timeout_ms(getenv(HOOK_ENV_TIMEOUT_MS));
  // Belt and braces: whatever hangs, leave on time with nothing said.
  alarm((unsigned)((timeout_ms + USER_STATUSLINE_CAP_MS + 1000 + 999) / 1000));

  // Run by hand in a terminal there is no payload; waiting for one would hang.
  buf input = {0};
  if (!isatty(0)) {
    char chunk[65536];
    for (;;) {
      ssize_t n = read(0, chunk, sizeof chunk);
      if (n > 0) put(&input, chunk, (size_t)n);
      else if (n < 0 && errno == EINTR) continue;
      else break;
    }
  }

  user_line user = {.pid = -1, .in = -1, .out = -1};
  const char *user_command = strcmp(event, STATUSLINE_EVENT) == 0 ? getenv(HOOK_ENV_USER_STATUSLINE) : NULL;
  if (user_command && *user_command && !start_user_line(&user, user_command)) user.failed = 1;
  int64_t user_deadline = now_ms() + USER_STATUSLINE_CAP_MS;

  // The request: {"token","event","payload"} on one line.
  buf request = {0}, answer = {0};
  int sock = -1;
  size_t sent = 0;
  int64_t deadline = now_ms() + timeout_ms;
  if (socket_path && *socket_path && token && *token && *event && input.len <= MAX_PAYLOAD_BYTES) {
    buf payload = {0};
    if (input.len && compact_object(input.data, input.len, &payload)) {
      put(&request, "{\"token\":", 9);
      put_json_string(&request, token);
      put(&request, ",\"event\":", 9);
      put_json_string(&request, event);
      put(&request, ",\"payload\":", 11);
      put(&request, payload.data, payload.len);
      put(&request, "}\n", 2);
      struct sockaddr_un addr = {.sun_family = AF_UNIX};
      if (strlen(socket_path) < sizeof addr.sun_path) {
        strcpy(addr.sun_path, socket_path);
        sock = socket(AF_UNIX, SOCK_STREAM, 0);
        // ENOENT, ECONNREFUSED (a stale socket): nothing to ask
        if (sock >= 0 && connect(sock, (struct sockaddr *)&addr, sizeof addr) < 0) close(sock), sock = -1;
        if (sock >= 0) fcntl(sock, F_SETFL, O_NONBLOCK);
      }
    }
    free(payload.data);
  }

  // One loop for both: the run's answer and the person's command, each with its own deadline.
  int user_running = user.pid > 0;
  while (sock >= 0 || user_running) {
    struct pollfd fds[3];
    int n = 0, at_sock = -1, at_in = -1, at_out = -1;
    if (sock >= 0) at_sock = n, fds[n++] = (struct pollfd){sock, (short)(sent < request.len ? POLLOUT : POLLIN), 0};
    if (user.in >= 0) at_in = n, fds[n++] = (struct pollfd){user.in, POLLOUT, 0};
    if (user.out >= 0) at_out = n, fds[n++] = (struct pollfd){user.out, POLLIN, 0};
    int64_t t = now_ms();
    int64_t next = sock >= 0 ? deadline : INT64_MAX;
    if (user_running && user_deadline < next) next = user_deadline;
    // Its stdout closed but the shell not yet reaped: look again shortly.
    int wait_ms = (int)(next - t < 0 ? 0 : next - t);
    if (user_running && user.out < 0 && wait_ms > 5) wait_ms = 5;
    if (n > 0 && poll(fds, (nfds_t)n, wait_ms) < 0 && errno != EINTR) break;
    if (n == 0) usleep((useconds_t)wait_ms * 1000);
    t = now_ms();

    if (at_sock >= 0 && sock >= 0 && fds[at_sock].revents) {
      if (sent < request.len) {
        ssize_t w = write(sock, request.data + sent, request.len - sent);
        if (w > 0) sent += (size_t)w;
        else if (w < 0 && errno != EAGAIN && errno != EINTR) answer.len = 0, close(sock), sock = -1;
      } else {
        char chunk[65536];
        ssize_t r = read(sock, chunk, sizeof chunk);
        if (r > 0) put(&answer, chunk, (size_t)r);
        if (r < 0 && errno != EAGAIN && errno != EINTR) answer.len = 0, close(sock), sock = -1; // a reset: nothing sure was said
        else if (r == 0 || (r > 0 && memchr(chunk, '\n', (size_t)r))) close(sock), sock = -1;
      }
    }
    if (sock >= 0 && t >= deadline) answer.len = 0, close(sock), sock = -1;

    if (at_in >= 0 && user.in >= 0 && fds[at_in].revents) {
      ssize_t w = input.len > user.written ? write(user.in, input.data + user.written, input.len - user.written) : 0;
      if (w > 0) user.written += (size_t)w;
      if (user.written >= input.len || (w < 0 && errno != EAGAIN && errno != EINTR)) close(user.in), user.in = -1;
    }
    if (at_out >= 0 && user.out >= 0 && fds[at_out].revents) {
      char chunk[65536];
      ssize_t r = read(user.out, chunk, sizeof chunk);
      if (r > 0) put(&user.text, chunk, (size_t)r);
      else if (r == 0 || (errno != EAGAIN && errno != EINTR)) close(user.out), user.out = -1;
    }
    if (user_running && user.out < 0 && waitpid(user.pid, NULL, WNOHANG) == user.pid) {
      user_running = 0;
      if (user.in >= 0) close(user.in), user.in = -1;
    }
    if (user_running && t >= user_deadline) {
      kill(-user.pid, SIGKILL);
      user.failed = 1;
      user_running = 0;
    }
  }

  // The person's own status line wins; the run's text shows only when there is none (or it failed).
  buf out = {0};
  if (user.pid > 0 && !user.failed) {
    if (user.text.len) put(&out, user.text.data, user.text.len);
  } else {
    size_t line = answer.len;
    const char *nl = answer.len ? memchr(answer.data, '\n', answer.len) : NULL;
    if (nl) line = (size_t)(nl - answer.data);
    if (line) read_output(answer.data, line, &out);
  }
  for (size_t done = 0; done < out.len;) {
    ssize_t w = write(1, out.data + done, out.len - done);
    if (w > 0) done += (size_t)w;
    else if (w < 0 && errno == EINTR) continue;
    else break;
  }
  return 0;
}
#endif
