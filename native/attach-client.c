// `flower-pty attach` natively, when it is certain: src/client/attach-client.ts's twin for the one case a
// person waits on, a terminal attached to a run whose socket needs no asking (the id's, or the only one),
// drawn by the run server itself. Like a tmux client, it then only waits: it says hello with its terminal's
// path, tells the server its terminal's new sizes, runs the person's editor when asked, detaches on a
// hang-up, TERM or INT, and prints how the attach ended. Node's start-up alone is 60 to 110 ms on a small
// machine; this starts in about one.
//
// Anything it cannot take for certain goes to the Node client, with the same arguments, before a byte is
// written to the terminal: a flag it does not know, no socket or several, a socket directory that is not
// the person's alone (Node says why), a server that refuses or cannot draw this terminal. So every error a
// person can read is worded once, in TypeScript. The wire's version, the exit codes and the outcome's words
// come from their TypeScript homes through the build (scripts/build-native.mjs); test/e2e/native-attach.test.ts
// holds it to the Node client's outcome lines.
#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#if !defined(WIRE_VERSION) || !defined(EXIT_OK) || !defined(EXIT_SERVER_LOST) || !defined(EXIT_INTERRUPTED) || \
    !defined(OUTCOME_DETACHED) || !defined(OUTCOME_LOST) || !defined(OUTCOME_KILLED) || !defined(OUTCOME_LINEAGE) || !defined(OUTCOME_INTERRUPTED) || !defined(GIVE_BACK)
#error "build with scripts/build-native.mjs: it passes the wire's version, the exit codes and the outcome's words from src/"
#endif
#ifndef DETACH_KEYS
#error "build with scripts/build-native.mjs: it passes the keys --detach-key takes (core/screen/keymap.ts parsePrefix)"
#endif

#define DETACH_WAIT_MS 1000

#define BUF_OUT_OF_MEMORY() exit(EXIT_INTERRUPTED)
#include "byte-buffer.h"

static void puts_(buf *b, const char *s) { put(b, s, strlen(s)); }

// --- the Node client, for everything this one does not take -------------------------------------------

static char **node_argv;

// Replaces this process with `node <bin> attach …`: nothing has been written to the terminal yet.
static void to_node(void) {
  execvp("node", node_argv);
  fprintf(stderr, "flower-pty: cannot start node (%s); is it on your PATH?\n", strerror(errno));
  exit(127);
}

// --- JSON (json-text.h, the hook client's reader): the few members of the server's messages it reads -----

#include "json-text.h"
#include "terminal-text.h"

// A member of the object data[0..len) that is a string, decoded (a malloc'd copy, its length in `*n`);
// NULL for anything else.
static char *text_member(const char *data, size_t len, const char *key, size_t *n) {
  cursor at;
  if (!find_member(data, len, key, &at) || *at.p != '"') return NULL;
  buf text = {0};
  put(&text, "", 0);
  if (read_string(&at, NULL, &text)) {
    *n = text.len;
    return text.data;
  }
  free(text.data);
  return NULL;
}

// A member that is a string without a NUL (a path, an id, a word: read as a C string), decoded; NULL for
// anything else. A NUL would cut it short ("doc\u0000.md" is no "doc"), so such a string is refused.
static char *string_member(const char *data, size_t len, const char *key) {
  size_t n = 0;
  char *text = text_member(data, len, key, &n);
  if (text && strlen(text) != n) {
    free(text);
    return NULL;
  }
  return text;
}

// A member that is a number with a whole value in [low, high] (as JSON.parse reads it: 1e2 is 100,
// 4294967296 is past any exit status): 1 and the value in `*out`, else 0.
static int whole_member(const char *data, size_t len, const char *key, long low, long high, long *out) {
  cursor at;
  if (!find_member(data, len, key, &at) || (*at.p != '-' && (*at.p < '0' || *at.p > '9'))) return 0;
  // a JSON number ends before a byte strtod would take (the frame is NUL-terminated)
  double v = strtod(at.p, NULL);
  if (!(v >= (double)low && v <= (double)high) || v != (double)(long)v) return 0;
  *out = (long)v;
  return 1;
}

// A member that is `true`.
static int true_member(const char *data, size_t len, const char *key) {
  cursor at;
  return find_member(data, len, key, &at) && at.end - at.p == 4 && memcmp(at.p, "true", 4) == 0;
}

static int has_member(const char *data, size_t len, const char *key) {
  cursor at;
  return find_member(data, len, key, &at);
}

// --- the server's frames ---------------------------------------------------------------------------------

#define MAX_FRAME (16 * 1024 * 1024)

// The next frame in `in` (a 4-byte length, then JSON): 1 with it in `*json` (malloc'd, NUL-terminated) and
// its length in `*len`, taken out of `in`; 0 when it is not all there yet; -1 when its length is past
// MAX_FRAME (garbage: the server is as good as lost).
static int next_frame(buf *in, char **json, size_t *len) {
  if (in->len < 4) return 0;
  const unsigned char *h = (const unsigned char *)in->data;
  size_t n = (size_t)h[0] << 24 | (size_t)h[1] << 16 | (size_t)h[2] << 8 | h[3];
  if (n > MAX_FRAME) return -1;
  if (in->len < 4 + n) return 0;
  char *frame = malloc(n + 1);
  if (!frame) BUF_OUT_OF_MEMORY();
  memcpy(frame, in->data + 4, n);
  frame[n] = 0;
  memmove(in->data, in->data + 4 + n, in->len - 4 - n);
  in->len -= 4 + n;
  *json = frame;
  *len = n;
  return 1;
}

// A server message as this client reads it, refused where src/server/wire.ts's parseServerMessage refuses
// it (MSG_BAD: not an object, no `t`, a NUL in a path, a bye's reason or exit status out of its range).
enum { MSG_BAD, MSG_WELCOME, MSG_BYE, MSG_EDIT, MSG_OTHER };
typedef struct {
  int kind;
  char *t;
  // welcome: drawn by the server (`direct`), and the run's id, workbench and pid
  int direct;
  char *run_id, *workbench;
  long run_pid;
  // bye: why (detached, killed or ended), the exit status, the server's own words (any bytes, `message_len` long)
  int detached, killed;
  long exit_code;
  char *message;
  size_t message_len;
  // edit: the document's path
  char *path;
} server_msg;

static void read_message(const char *json, size_t len, server_msg *m) {
  memset(m, 0, sizeof *m);
  m->t = string_member(json, len, "t");
  if (!m->t) return;
  if (strcmp(m->t, "welcome") == 0) {
    cursor run;
    if (!find_member(json, len, "run", &run)) return;
    size_t run_len = (size_t)(run.end - run.p);
    m->run_id = string_member(run.p, run_len, "id");
    m->workbench = string_member(run.p, run_len, "workbench");
    cursor workbench;
    int no_workbench = !find_member(run.p, run_len, "workbench", &workbench) || *workbench.p == 'n';
    if (!m->run_id || (!m->workbench && !no_workbench)) return;
    whole_member(run.p, run_len, "pid", INT_MIN, INT_MAX, &m->run_pid);
    m->direct = true_member(json, len, "direct");
    m->kind = MSG_WELCOME;
  } else if (strcmp(m->t, "bye") == 0) {
    char *reason = string_member(json, len, "reason");
    int known = reason && (strcmp(reason, "detached") == 0 || strcmp(reason, "killed") == 0 || strcmp(reason, "ended") == 0);
    m->detached = known && strcmp(reason, "detached") == 0;
    m->killed = known && strcmp(reason, "killed") == 0;
    free(reason);
    m->exit_code = EXIT_OK;
    if (!known || (has_member(json, len, "exitCode") && !whole_member(json, len, "exitCode", 0, 255, &m->exit_code))) return;
    m->message = text_member(json, len, "message", &m->message_len);
    if (!m->message && has_member(json, len, "message")) return;
    m->kind = MSG_BYE;
  } else if (strcmp(m->t, "edit") == 0) {
    m->path = string_member(json, len, "path");
    if (m->path) m->kind = MSG_EDIT;
  } else {
    m->kind = MSG_OTHER;
  }
}

static void free_message(server_msg *m) {
  free(m->t);
  free(m->run_id);
  free(m->workbench);
  free(m->message);
  free(m->path);
}

// An environment value as the hello carries it: at most `max` bytes, cut on a character's boundary.
static void put_env(buf *b, const char *key, const char *value, size_t max) {
  char cut[128];
  size_t n = strlen(value);
  if (n > max) {
    n = max;
    while (n > 0 && ((unsigned char)value[n] & 0xc0) == 0x80) n--;
  }
  memcpy(cut, value, n);
  cut[n] = 0;
  puts_(b, ",\"");
  puts_(b, key);
  puts_(b, "\":");
  put_json_string(b, cut);
}

// --- the socket -------------------------------------------------------------------------------------------

static int valid_id(const char *s, size_t n) {
  if (n < 1 || n > 32) return 0;
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9'))) return 0;
  return 1;
}

// The socket directory as src/server/socket-dir.ts names it ($XDG_RUNTIME_DIR/flower-pty, else
// <tmpdir>/flower-pty-<uid>, tmpdir as Node's os.tmpdir() reads it), when it is a directory of ours alone;
// else NULL (Node makes it, or says what is wrong with it).
static char *socket_dir(void) {
  static char dir[4096];
  const char *xdg = getenv("XDG_RUNTIME_DIR");
  if (xdg && xdg[0] == '/') snprintf(dir, sizeof dir, "%s/flower-pty", xdg);
  else {
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp) tmp = getenv("TMP");
    if (!tmp || !*tmp) tmp = getenv("TEMP");
    if (!tmp || !*tmp) tmp = "/tmp";
    char base[4096];
    snprintf(base, sizeof base, "%s", tmp);
    size_t n = strlen(base);
    if (n > 1 && base[n - 1] == '/') base[n - 1] = 0;
    snprintf(dir, sizeof dir, "%s/flower-pty-%u", base, (unsigned)getuid());
  }
  struct stat st;
  if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077) != 0) return NULL;
  return dir;
}

// The run's socket when no server needs asking: the id's, or the only one (socket-dir.ts's certainSocket).
static int certain_socket(const char *dir, const char *id, char *out, size_t size) {
  if (id) {
    if (!valid_id(id, strlen(id))) return 0;
    return snprintf(out, size, "%s/%s.sock", dir, id) < (int)size;
  }
  DIR *d = opendir(dir);
  if (!d) return 0;
  int found = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t n = strlen(e->d_name);
    if (n > 5 && strcmp(e->d_name + n - 5, ".sock") == 0 && valid_id(e->d_name, n - 5)) {
      if (++found == 1 && (size_t)snprintf(out, size, "%s/%s", dir, e->d_name) >= size) found = 2; // too long to connect to
    }
  }
  closedir(d);
  return found == 1;
}

static int send_all(int fd, const char *data, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, data, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    data += n;
    len -= (size_t)n;
  }
  return 0;
}

static int send_frame(int fd, const char *json) {
  size_t len = strlen(json);
  unsigned char head[4] = {(unsigned char)(len >> 24), (unsigned char)(len >> 16), (unsigned char)(len >> 8), (unsigned char)len};
  return send_all(fd, (const char *)head, 4) == 0 ? send_all(fd, json, len) : -1;
}

static void terminal_size(int *cols, int *rows) {
  struct winsize ws;
  *cols = 80;
  *rows = 24;
  if (ioctl(1, TIOCGWINSZ, &ws) == 0) {
    if (ws.ws_col) *cols = ws.ws_col;
    if (ws.ws_row) *rows = ws.ws_row;
  }
}

// --- signals, through a pipe the loop polls --------------------------------------------------------------

static int signal_pipe[2];

static void on_signal(int sig) {
  unsigned char b = (unsigned char)sig;
  int saved = errno;
  (void)!write(signal_pipe[1], &b, 1);
  errno = saved;
}

// --- the editor, as src/tui/editor.ts runs it ---------------------------------------------------------------

static const char *signal_name(int sig) {
  switch (sig) {
    case SIGHUP: return "SIGHUP";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGPIPE: return "SIGPIPE";
    default: return "a signal";
  }
}

static char *trimmed_env(const char *name) {
  const char *v = getenv(name);
  if (!v) return NULL;
  while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r') v++;
  size_t n = strlen(v);
  while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\n' || v[n - 1] == '\r')) n--;
  if (n == 0) return NULL;
  char *s = malloc(n + 1);
  if (!s) return NULL;
  memcpy(s, v, n);
  s[n] = 0;
  return s;
}

// Runs the editor on `path` through the shell and says how it ended, as an `edited` message.
static void run_editor(int sock, const char *path) {
  char *command = trimmed_env("VISUAL");
  if (!command) command = trimmed_env("EDITOR");
  if (!command) command = strdup("vi");
  buf line = {0};
  puts_(&line, command);
  puts_(&line, " '");
  for (const char *p = path; *p; p++) {
    if (*p == '\'') puts_(&line, "'\\''");
    else put(&line, p, 1);
  }
  puts_(&line, "'");
  buf answer = {0};
  // Ctrl-C and Ctrl-\ typed in the editor are the editor's: the terminal sends them to the whole foreground
  // group, this client too, which must neither detach nor die of them (as a shell ignores them while its
  // foreground job runs).
  struct sigaction ignore = {.sa_handler = SIG_IGN}, was_int, was_quit;
  sigaction(SIGINT, &ignore, &was_int);
  sigaction(SIGQUIT, &ignore, &was_quit);
  pid_t child = fork();
  if (child == 0) {
    signal(SIGQUIT, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGWINCH, SIG_DFL);
    signal(SIGPIPE, SIG_DFL); // an ignored signal stays ignored across exec: the editor gets the default, as Node's spawn gives it
    execl("/bin/sh", "sh", "-c", line.data, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  char problem[1024] = "";
  if (child < 0) snprintf(problem, sizeof problem, "could not start the editor \"%s\": %s; set $VISUAL or $EDITOR", command, strerror(errno));
  else {
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
  }
  sigaction(SIGINT, &was_int, NULL);
  sigaction(SIGQUIT, &was_quit, NULL);
  if (child >= 0) {
    if (WIFSIGNALED(status)) snprintf(problem, sizeof problem, "the editor \"%s\" ended with %s", command, signal_name(WTERMSIG(status)));
    else if (WEXITSTATUS(status) != 0)
      snprintf(problem, sizeof problem, "the editor \"%s\" ended with code %d%s", command, WEXITSTATUS(status), WEXITSTATUS(status) == 127 ? ": not found, set $VISUAL or $EDITOR" : "");
  }
  puts_(&answer, "{\"t\":\"edited\",\"ok\":");
  if (problem[0]) {
    puts_(&answer, "false,\"problem\":");
    put_json_string(&answer, problem);
  } else puts_(&answer, "true");
  puts_(&answer, "}");
  send_frame(sock, answer.data);
  free(answer.data);
  free(line.data);
  free(command);
}

// --- the attach ---------------------------------------------------------------------------------------------------

// What src/client/attach-outcome.ts prints, word for word (the build passes the words in).
// The line carries a path or a server's message: through the one terminal boundary (terminal-text.h).
static void say(const char *line) {
  fputs("flower-pty: ", stderr);
  put_terminal_text(stderr, line);
  fputc('\n', stderr);
}
// The server's own words, any bytes (a NUL among them included), as the Node client prints them.
static void say_bytes(const char *text, size_t len) {
  fputs("flower-pty: ", stderr);
  put_terminal_bytes(stderr, text, len);
  fputc('\n', stderr);
}

static struct termios saved_termios;
static int have_termios;

#ifndef FLOWER_PTY_FUZZING // native/fuzz/ calls the readers above without the program
// --detach-key's control byte for `name` (C-x or ^x, any case), as parsePrefix in core/screen/keymap.ts reads
// it: 1 and the byte in `out` for a key DETACH_KEYS (made from parsePrefix by the build) lists, else 0.
static int detach_key_of(const char *name, char out[2]) {
  if (!((name[0] == 'C' || name[0] == 'c') && name[1] == '-') && name[0] != '^') return 0;
  const char *key = name[0] == '^' ? name + 1 : name + 2;
  if (key[0] == 0 || key[1] != 0) return 0;
  char up = (char)toupper((unsigned char)key[0]);
  if (!strchr(DETACH_KEYS, up)) return 0;
  out[0] = (char)(up - 0x40);
  out[1] = 0;
  return 1;
}

int main(int argc, char **argv) {
  // argv: this binary, the bin's path, then the command line (attach …). Node gets it whole.
  if (argc < 3) return 2;
  node_argv = calloc((size_t)argc + 1, sizeof *node_argv);
  if (!node_argv) return 2;
  node_argv[0] = "node";
  for (int i = 1; i < argc; i++) node_argv[i] = argv[i];
  if (strcmp(argv[2], "attach") != 0) to_node();
  const char *id = NULL;
  int plain = 0;
  char detach_key[2] = "";
  for (int i = 3; i < argc; i++) {
    if (strcmp(argv[i], "--plain") == 0 && !plain) plain = 1;
    else if (argv[i][0] != '-' && !id) id = argv[i];
    else if (strncmp(argv[i], "--detach-key", 12) == 0 && (argv[i][12] == 0 || argv[i][12] == '=') && !detach_key[0]) {
      const char *name = argv[i][12] == '=' ? argv[i] + 13 : (i + 1 < argc ? argv[++i] : NULL);
      if (!name || !detach_key_of(name, detach_key)) to_node(); // no value, or one Node must say is wrong
    } else to_node(); // --help, --workbench, a flag twice, a second id: Node reads them
  }
  // The server opens this terminal and draws it: stdin and stdout must both be it.
  char in[256], out[256];
  ssize_t ni = readlink("/proc/self/fd/0", in, sizeof in - 1), no = readlink("/proc/self/fd/1", out, sizeof out - 1);
  if (!isatty(0) || !isatty(1) || ni <= 0 || no <= 0) to_node();
  in[ni] = 0;
  out[no] = 0;
  if (strcmp(in, out) != 0 || strncmp(in, "/dev/", 5) != 0) to_node();
  const char *dir = socket_dir();
  char path[4200];
  if (!dir || !certain_socket(dir, id, path, sizeof path) || strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path)) to_node();
  int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  memcpy(addr.sun_path, path, strlen(path) + 1);
  if (sock < 0 || connect(sock, (struct sockaddr *)&addr, sizeof addr) != 0) to_node(); // a server gone: Node sweeps it

  if (tcgetattr(0, &saved_termios) == 0) have_termios = 1;
  int cols, rows;
  terminal_size(&cols, &rows);
  // The size is the terminal's: the server opens it and works out the face's own (client-paint.ts).
  buf hello = {0};
  char head[160];
  snprintf(head, sizeof head, "{\"t\":\"hello\",\"version\":%d,\"role\":\"attach\",\"cols\":%d,\"rows\":%d,\"face\":\"%s\",\"tty\":", WIRE_VERSION, cols, rows, plain ? "plain" : "split");
  puts_(&hello, head);
  put_json_string(&hello, in);
  if (plain && detach_key[0]) {
    puts_(&hello, ",\"detachKey\":");
    put_json_string(&hello, detach_key);
  }
  puts_(&hello, ",\"starter\":false,\"term\":");
  const char *term = getenv("TERM");
  put_json_string(&hello, term ? term : "xterm-256color");
  const char *no_color = getenv("NO_COLOR");
  puts_(&hello, no_color && *no_color ? ",\"noColor\":true" : ",\"noColor\":false");
  const char *v;
  if ((v = getenv("COLORTERM")) && *v) put_env(&hello, "colorterm", v, 64);
  if ((v = getenv("TERM_PROGRAM")) && *v) put_env(&hello, "termProgram", v, 64);
  if ((v = getenv("TMUX")) && *v) puts_(&hello, ",\"tmux\":true");
  if ((v = getenv("FLOWER_PTY_PREFIX")) && *v) put_env(&hello, "prefix", v, 16);
  puts_(&hello, "}");
  if (send_frame(sock, hello.data) != 0) to_node();

  // Non-blocking: a burst of resizes must never block the handler on a full pipe. Close-on-exec: the
  // editor has no business with it.
  if (pipe(signal_pipe) != 0) to_node();
  for (int i = 0; i < 2; i++) {
    fcntl(signal_pipe[i], F_SETFD, FD_CLOEXEC);
    fcntl(signal_pipe[i], F_SETFL, fcntl(signal_pipe[i], F_GETFL) | O_NONBLOCK);
  }
  struct sigaction sa = {.sa_handler = on_signal};
  sigemptyset(&sa.sa_mask);
  int signals[] = {SIGHUP, SIGTERM, SIGINT, SIGWINCH};
  for (size_t i = 0; i < sizeof signals / sizeof *signals; i++) sigaction(signals[i], &sa, NULL);
  signal(SIGPIPE, SIG_IGN);

  buf in_buf = {0};
  char *run_id = NULL, *workbench = NULL;
  long run_pid = 0;
  int welcomed = 0, detaching = 0, ended = 0;
  long exit_code = EXIT_OK;
  int64_t deadline = -1;
  for (;;) {
    struct pollfd fds[2] = {{.fd = sock, .events = POLLIN}, {.fd = signal_pipe[0], .events = POLLIN}};
    int wait_ms = -1;
    if (deadline >= 0) {
      struct timespec ts;
      clock_gettime(CLOCK_MONOTONIC, &ts);
      int64_t now = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
      if (now >= deadline) break; // a server that does not answer a detach is left anyway
      wait_ms = (int)(deadline - now);
    }
    if (poll(fds, 2, wait_ms) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[1].revents & POLLIN) {
      unsigned char sig;
      if (read(signal_pipe[0], &sig, 1) == 1) {
        if (sig == SIGWINCH) {
          if (welcomed) {
            terminal_size(&cols, &rows);
            char resize[96];
            snprintf(resize, sizeof resize, "{\"t\":\"resize\",\"cols\":%d,\"rows\":%d}", cols, rows);
            send_frame(sock, resize);
          }
        } else if (!welcomed) {
          say(OUTCOME_INTERRUPTED);
          return EXIT_INTERRUPTED;
        } else if (!detaching) {
          detaching = 1;
          send_frame(sock, "{\"t\":\"detach\"}");
          struct timespec ts;
          clock_gettime(CLOCK_MONOTONIC, &ts);
          deadline = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + DETACH_WAIT_MS;
        }
      }
    }
    if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    char chunk[65536];
    ssize_t n = read(sock, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break; // the server hung up
    put(&in_buf, chunk, (size_t)n);
    int stop = 0;
    char *json;
    size_t len;
    while (!stop) {
      int got = next_frame(&in_buf, &json, &len);
      if (got < 0) stop = 2;
      if (got <= 0) break;
      server_msg m;
      read_message(json, len, &m);
      if (!welcomed && m.kind == MSG_WELCOME) {
        // A terminal the server could not open is drawn from the stream, which only the Node client can.
        if (!m.direct) {
          close(sock);
          to_node();
        }
        run_id = m.run_id, m.run_id = NULL;
        workbench = m.workbench, m.workbench = NULL;
        run_pid = m.run_pid;
        welcomed = 1;
      } else if (!welcomed) {
        close(sock); // refused, or anything else first: Node hears it again and says it in its words
        to_node();
      } else if (m.kind == MSG_BAD) {
        stop = 2;
      } else if (m.kind == MSG_BYE) {
        if (m.detached) detaching = 1;
        else {
          ended = 1;
          exit_code = m.exit_code;
          if (m.message) say_bytes(m.message, m.message_len);
          if (m.killed) {
            char line[256];
            snprintf(line, sizeof line, OUTCOME_KILLED, run_id);
            say(line);
          }
          if (workbench && *workbench && (exit_code == EXIT_OK || m.killed)) {
            char line[8192];
            size_t w = strlen(workbench);
            char manifest[4200];
            snprintf(manifest, sizeof manifest, "%s%smanifest.json", workbench, w > 1 && workbench[w - 1] == '/' ? "" : "/");
            snprintf(line, sizeof line, OUTCOME_LINEAGE, manifest);
            say(line);
          }
        }
        stop = 1;
      } else if (m.kind == MSG_EDIT) {
        run_editor(sock, m.path);
      }
      free_message(&m);
      free(json);
    }
    if (stop) {
      if (stop == 2 && !detaching) break; // garbage on the wire: the server is as good as lost
      if (ended) return (int)exit_code;
      break;
    }
  }
  if (!welcomed) {
    close(sock);
    to_node();
  }
  if (detaching) {
    char line[256];
    snprintf(line, sizeof line, OUTCOME_DETACHED, run_id, run_id);
    say(line);
    return EXIT_OK;
  }
  // The server died while drawing this terminal: the modes it left on go off, and the terminal is as it was.
  static const char give_back[] = GIVE_BACK;
  (void)!write(1, give_back, sizeof give_back - 1);
  if (have_termios) tcsetattr(0, TCSANOW, &saved_termios);
  char line[512];
  snprintf(line, sizeof line, OUTCOME_LOST, run_id, (int)run_pid);
  say(line);
  return EXIT_SERVER_LOST;
}
#endif
