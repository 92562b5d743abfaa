// The run server's key-and-echo path in native code, on a thread of its own: claude's pty and the
// terminals of the clients drawn in plain mode, relayed without waiting on Node's event loop (each
// wake of which costs a key tens of microseconds: Node's floor sat above tmux's, see
// docs/benchmarks.md). JavaScript still sees every byte, a moment later, and decides everything else: what the
// emulator holds, the titles, detaching, when a terminal joins or leaves.
//
// The thread is the only reader of claude's pty and of each joined terminal, and the only writer to
// them: every write from JavaScript is queued here, so nothing interleaves inside an escape sequence.
// A split view's terminal is read for its keys alone (JavaScript draws it): typed text goes straight to
// claude while JavaScript keeps the pass-through open; every other read is JavaScript's to route. Of
// claude's output it gets only the plain echo JavaScript armed the thread for after a frame (echo-path.h).
// Output a terminal gets is claude's minus its title sequences (OSC 0/1/2), the same filter as
// src/core/screen/title-filter.ts, byte for byte (native/title-filter.h; test/adapters/fast-relay.test.ts holds
// the two together).
#define NAPI_VERSION 8
#include <node_api.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "title-filter.h"
#include "echo-path.h"
// The thread's wake-up: an eventfd on Linux; where there is none (macOS, the BSDs) a self-pipe, the
// same thing in two fds. FLOWER_PTY_SELF_PIPE builds the pipe on Linux too (the relay's tests run it).
#if defined(__linux__) && !defined(FLOWER_PTY_SELF_PIPE)
#define WAKE_EVENTFD 1
#define WAKE_KIND "eventfd"
#include <sys/eventfd.h>
#else
#define WAKE_KIND "pipe"
#endif

#define MAX_TERMINALS 32
#define READ_SIZE 65536
// Read ahead of JavaScript no further than this: past it the pty waits, as it would for Node's stream.
// JavaScript acknowledges output a turn of its event loop after taking it (ack()), so a turn takes
// about what a stream's reads would: its emulator, which parses on timers, keeps up.
#define MAX_UNCONSUMED (256u << 10)
#define MAX_KEY 16
// Keys a split view's terminal sent straight to claude are told to JavaScript just before claude's next
// output (their echo, as a rule), in the same wake of its event loop, or after TELL_MS without any: it
// can then keep its books on them after the echo is drawn, in the same turn.
#define TELL_MS 2
// After the thread drew an echo, JavaScript hears of that chunk (and of anything posted meanwhile) this
// much later, unless something JavaScript must see comes first: its work for the chunk (the keys' books,
// the parse, a frame that draws the same cells again) would otherwise take a core from the person's
// terminal while it draws the echo. Measured on 2 cores: a paste's echo waited 1-2 ms for one in about
// one paste of seven; with the yield, none did. Not extended by the echoes that follow: a stream of them
// still reaches JavaScript every ECHO_YIELD_MS.
#define ECHO_YIELD_MS 1
#define TOLD_MAX 256
// A terminal this far behind holds claude's output back, as a terminal of its own would: a slow
// terminal gets every byte. One that takes nothing for STALL_MS no longer holds it back (it is
// stopped: ^S, a frozen ssh): claude goes on, its backlog grows, and past a bound JavaScript lets
// its client go (client-link.ts). Without this a slow terminal's client was dropped in a flood.
#define TERMINAL_HIGH_WATER (1u << 20)
#define STALL_MS 2000
// Keys waiting for claude (a paste it is not reading) are read from a terminal no further than this: past it
// the terminal's keys wait in the kernel, as they would on a terminal of claude's own. The run server's
// ceiling for what its JavaScript queues (src/core/server/input-ceiling.ts), passed by the build.
#ifndef MAX_PENDING_INPUT
#error "MAX_PENDING_INPUT comes from src/core/server/input-ceiling.ts (scripts/native-defines.mjs)"
#endif

enum { EV_OUTPUT = 1, EV_INPUT = 2, EV_CLOSED = 3, EV_UNBOUND = 4, EV_ECHOED = 5 };

typedef struct chunk {
  struct chunk *next;
  uint64_t seq;
  size_t len, off;
  char data[];
} chunk;

typedef struct {
  chunk *head, *tail;
  size_t bytes;
} queue;

typedef struct {
  int used;
  int id;
  int in_fd, out_fd;
  int reading; // stops at the terminal's hang-up (EIO): its client's socket says the rest
  int dead;    // a write failed for good: what is queued for it is dropped
  int64_t took_at; // when it last took some of its output (or joined), CLOCK_MONOTONIC ms
  unsigned char key[MAX_KEY];
  size_t key_len;
  queue out;
  // A terminal JavaScript draws itself (the split view): the relay reads its keys and writes it none of
  // claude's output but the echo JavaScript armed it for. A read goes straight to claude only while the
  // pass-through is open and every byte of it is in `pass` (a table JavaScript hands over, decided by
  // core/screen/keymap.ts); any other read is JavaScript's and closes the pass-through until JavaScript,
  // through with every read it was handed (`held` counts them), opens it again: keys stay in order behind
  // a prefix key, a paste, a mouse report.
  int keys_only;
  int pass_open;
  int paused; // the terminal is handed to an editor: its keys are not ours to read
  uint64_t held;
  unsigned char pass[256];
  char sent[TOLD_MAX]; // forwarded, not yet told to JavaScript
  size_t sent_len;
  int64_t sent_at;
  // Claude's plain echo drawn here into the split view's pane (echo-path.h), while JavaScript, through with
  // its frame, keeps it armed; JavaScript writes this terminal itself otherwise, and disarms it first.
  echo_state echo;
  // what JavaScript said is beside the pane on its rows (echo-path.h: put back after a scroll); kept
  // across arms until it sends another, so a frame that changed nothing there sends nothing
  char beside[ECHO_BESIDE_MAX];
  size_t beside_len;
  int has_beside;
} terminal;

typedef struct {
  pthread_mutex_t mu;
  pthread_t thread;
  int wake_rfd, wake_wfd; // the same eventfd twice, or a self-pipe's two ends
  int stopping;
  int pty_fd;
  int pty_reading;
  uint32_t pty_gen;
  // The pty's write side is the relay's whether or not it reads the pty: one queue, so every write
  // to claude is in order and none blocks JavaScript (a pty master's writes through libuv block).
  int pty_wfd;
  queue pty_out;
  terminal terms[MAX_TERMINALS];
  // the title filter's carry between chunks (title-filter.h)
  title_filter titles;
  // the last chunk read ended inside a UTF-8 character (echo-path.h)
  int utf8_cut;
  char echo_out[ECHO_PLAN_CAP];
  // filtered output posted to JavaScript and not yet taken: a terminal that joins gets it
  queue retained;
  uint64_t seq;
  _Atomic uint64_t consumed_seq;
  _Atomic size_t unconsumed;
  napi_threadsafe_function tsfn;
  // events kept back after an echo (ECHO_YIELD_MS), in order, until yield_until
  struct event *yield_head, *yield_tail;
  int64_t yield_until;
} relay;

typedef struct event {
  struct event *next; // in the relay's yield list
  int kind;
  int id;
  int forwarded;
  uint32_t gen;
  uint64_t seq;
  size_t len;
  relay *r;
  char data[];
} event;

static chunk *chunk_new(const char *data, size_t len, uint64_t seq) {
  chunk *c = malloc(sizeof(chunk) + len);
  if (!c) return NULL;
  c->next = NULL;
  c->seq = seq;
  c->len = len;
  c->off = 0;
  memcpy(c->data, data, len);
  return c;
}

static void queue_push(queue *q, chunk *c) {
  if (!c) return;
  if (q->tail) q->tail->next = c;
  else q->head = c;
  q->tail = c;
  q->bytes += c->len - c->off;
}

static void queue_append(queue *q, const char *data, size_t len, uint64_t seq) {
  if (len) queue_push(q, chunk_new(data, len, seq));
}

static void queue_clear(queue *q) {
  chunk *c = q->head;
  while (c) {
    chunk *next = c->next;
    free(c);
    c = next;
  }
  q->head = q->tail = NULL;
  q->bytes = 0;
}

// Writes what it can without blocking. 0: all out or waiting for room; -1: the fd is gone for good.
static int queue_flush(queue *q, int fd) {
  while (q->head) {
    chunk *c = q->head;
    ssize_t n = write(fd, c->data + c->off, c->len - c->off);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
      return -1;
    }
    c->off += (size_t)n;
    q->bytes -= (size_t)n;
    if (c->off < c->len) return 0;
    q->head = c->next;
    if (!q->head) q->tail = NULL;
    free(c);
  }
  return 0;
}

static int64_t now_ms(void);

static void send_event(relay *r, event *e) {
  if (napi_call_threadsafe_function(r->tsfn, e, napi_tsfn_nonblocking) != napi_ok) free(e);
}

// What was kept back after an echo, to JavaScript now, in order.
static void end_yield(relay *r) {
  event *e = r->yield_head;
  r->yield_head = r->yield_tail = NULL;
  r->yield_until = 0;
  while (e) {
    event *next = e->next;
    send_event(r, e);
    e = next;
  }
}

// An event for JavaScript. `keep`: the thread just drew an echo: kept back ECHO_YIELD_MS (from the first
// one kept back); otherwise it goes now, after anything kept back.
static void post_or_keep(relay *r, int keep, int kind, int id, int forwarded, uint64_t seq, const char *data, size_t len) {
  event *e = malloc(sizeof(event) + len);
  if (!e) return;
  e->next = NULL;
  e->kind = kind;
  e->id = id;
  e->forwarded = forwarded;
  e->gen = r->pty_gen;
  e->seq = seq;
  e->len = len;
  e->r = r;
  if (len) memcpy(e->data, data, len);
  if (!keep && !r->yield_head) return send_event(r, e);
  if (r->yield_tail) r->yield_tail->next = e;
  else r->yield_head = e;
  r->yield_tail = e;
  if (!r->yield_until) r->yield_until = now_ms() + ECHO_YIELD_MS;
  if (!keep) end_yield(r);
}

static void post(relay *r, int kind, int id, int forwarded, uint64_t seq, const char *data, size_t len) {
  post_or_keep(r, 0, kind, id, forwarded, seq, data, len);
}

// Tells JavaScript of the keys forwarded and not yet told, before anything posted after them (kept back
// with them after an echo: `keep`).
static void tell_sent_or_keep(relay *r, int keep) {
  for (int i = 0; i < MAX_TERMINALS; i++) {
    terminal *t = &r->terms[i];
    if (!t->used || !t->sent_len) continue;
    post_or_keep(r, keep, EV_INPUT, t->id, 1, t->held, t->sent, t->sent_len);
    t->sent_len = 0;
  }
}

static void tell_sent(relay *r) { tell_sent_or_keep(r, 0); }

static void nonblocking(int fd);

static int wake_open(relay *r) {
#ifdef WAKE_EVENTFD
  r->wake_rfd = r->wake_wfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  return r->wake_rfd < 0 ? -1 : 0;
#else
  int ends[2];
  if (pipe(ends) < 0) return -1;
  for (int i = 0; i < 2; i++) {
    fcntl(ends[i], F_SETFD, FD_CLOEXEC);
    nonblocking(ends[i]);
  }
  r->wake_rfd = ends[0];
  r->wake_wfd = ends[1];
  return 0;
#endif
}

// A full pipe (EAGAIN) is a wake already pending: nothing is lost.
static void wake(relay *r) {
  uint64_t one = 1;
  ssize_t n = write(r->wake_wfd, &one, sizeof one);
  (void)n;
}

// An eventfd reads as one 8-byte counter; a pipe as whatever the wakes wrote: read until empty.
static void wake_drain(relay *r) {
  char buf[64];
  while (read(r->wake_rfd, buf, sizeof buf) > 0) {
  }
}

static void wake_close(relay *r) {
  close(r->wake_rfd);
  if (r->wake_wfd != r->wake_rfd) close(r->wake_wfd);
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void flush_terminal(terminal *t) {
  if (t->dead || !t->out.head) return;
  size_t before = t->out.bytes;
  if (queue_flush(&t->out, t->out_fd) < 0) {
    t->dead = 1;
    queue_clear(&t->out);
  } else if (t->out.bytes < before) {
    t->took_at = now_ms();
  }
}

// How long claude's output is held back for a terminal that is behind but still taking it: -1, not
// at all; else the ms until the slowest such terminal counts as stopped.
static int64_t held_back_for(relay *r) {
  int64_t now = now_ms(), wait = -1;
  for (int i = 0; i < MAX_TERMINALS; i++) {
    terminal *t = &r->terms[i];
    if (!t->used || t->dead || t->out.bytes <= TERMINAL_HIGH_WATER) continue;
    int64_t idle = now - t->took_at;
    if (idle >= STALL_MS) continue;
    if (wait < 0 || STALL_MS - idle < wait) wait = STALL_MS - idle;
  }
  return wait;
}

// A split view's pane, armed right after the output before this one: drawn here when echo_plan can (1).
// JavaScript is told which chunk (read_pty posts it once every terminal has its bytes, before the output
// itself), so its next frame draws those rows again.
// Any other output leaves the pane's state behind JavaScript's frames: disarmed until the next one.
static int echo_to(relay *r, terminal *t, const char *data, size_t len, uint64_t seq, int plain) {
  size_t n = 0;
  if (t->echo.armed && plain && t->echo.seq + 1 == seq) n = echo_plan(&t->echo, (const unsigned char *)data, len, r->echo_out);
  if (!n) {
    t->echo.armed = 0;
    return 0;
  }
  t->echo.seq = seq;
  queue_append(&t->out, r->echo_out, n, seq);
  flush_terminal(t);
  return 1;
}

static void read_pty(relay *r, char *buf, char *filtered) {
  ssize_t n = read(r->pty_fd, buf, READ_SIZE);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
  if (n <= 0) {
    tell_sent(r);
    // EIO: the child is gone and its pty with it. JavaScript closes the fd (node-pty's exit path).
    r->pty_reading = 0;
    post(r, EV_CLOSED, -1, 0, 0, NULL, 0);
    return;
  }
  uint64_t seq = ++r->seq;
  size_t out_len = title_filter_push(&r->titles, buf, (size_t)n, filtered);
  // What JavaScript's emulator will be handed as it is: nothing of it a title, no character cut before it.
  int plain = out_len == (size_t)n && memcmp(filtered, buf, (size_t)n) == 0 && !r->utf8_cut;
  r->utf8_cut = utf8_cut((const unsigned char *)buf, (size_t)n);
  // Every terminal's bytes first (the echo), and only then is JavaScript woken, ECHO_YIELD_MS later after
  // an echo. The events keep their order: the keys, the echo drawn, the output.
  int echoed[MAX_TERMINALS] = {0};
  int keep = 0; // an echo was drawn: JavaScript hears of this chunk ECHO_YIELD_MS later
  for (int i = 0; i < MAX_TERMINALS; i++) {
    terminal *t = &r->terms[i];
    if (!t->used || t->dead) continue;
    if (t->keys_only) {
      echoed[i] = echo_to(r, t, buf, (size_t)n, seq, plain);
      keep |= echoed[i];
      continue;
    }
    queue_append(&t->out, filtered, out_len, seq);
    flush_terminal(t);
  }
  tell_sent_or_keep(r, keep);
  for (int i = 0; i < MAX_TERMINALS; i++)
    if (echoed[i]) post_or_keep(r, keep, EV_ECHOED, r->terms[i].id, 0, seq, buf, (size_t)n);
  queue_append(&r->retained, filtered, out_len, seq);
  atomic_fetch_add(&r->unconsumed, (size_t)n);
  post_or_keep(r, keep, EV_OUTPUT, -1, 0, seq, buf, (size_t)n);
}

static void write_to_pty(relay *r, const char *data, size_t len) {
  queue_append(&r->pty_out, data, len, 0);
  if (queue_flush(&r->pty_out, r->pty_wfd) < 0) queue_clear(&r->pty_out);
}

static void read_terminal(relay *r, terminal *t, char *buf) {
  ssize_t n = read(t->in_fd, buf, READ_SIZE);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
  if (n <= 0) {
    t->reading = 0;
    return;
  }
  int forward;
  if (t->keys_only) {
    forward = t->pass_open && r->pty_wfd >= 0;
    for (ssize_t i = 0; forward && i < n; i++) forward = t->pass[(unsigned char)buf[i]];
    if (!forward) {
      t->pass_open = 0;
      t->held++;
    }
  } else {
    // The detach key alone in a read is JavaScript's to act on (plain-host: `data === key`).
    int is_key = t->key_len && (size_t)n == t->key_len && memcmp(buf, t->key, t->key_len) == 0;
    forward = !is_key && r->pty_fd >= 0 && r->pty_reading && r->pty_wfd >= 0;
  }
  if (forward) write_to_pty(r, buf, (size_t)n);
  if (forward && t->keys_only && (size_t)n <= TOLD_MAX) {
    if (t->sent_len + (size_t)n > TOLD_MAX) tell_sent(r);
    if (!t->sent_len) t->sent_at = now_ms();
    memcpy(t->sent + t->sent_len, buf, (size_t)n);
    t->sent_len += (size_t)n;
    return;
  }
  tell_sent(r);
  post(r, EV_INPUT, t->id, forward, t->held, buf, (size_t)n);
}

static void prune_retained(relay *r) {
  uint64_t done = atomic_load(&r->consumed_seq);
  while (r->retained.head && r->retained.head->seq <= done) {
    chunk *c = r->retained.head;
    r->retained.head = c->next;
    if (!r->retained.head) r->retained.tail = NULL;
    r->retained.bytes -= c->len - c->off;
    free(c);
  }
}

static void *run(void *arg) {
  relay *r = arg;
  char *buf = malloc(READ_SIZE);
  // The filter's output is at most what it carried plus the chunk.
  char *filtered = malloc(READ_SIZE + HELD_CAP);
  struct pollfd fds[2 + 2 * MAX_TERMINALS];
  int owner[2 + 2 * MAX_TERMINALS];
  for (;;) {
    pthread_mutex_lock(&r->mu);
    if (r->stopping) {
      pthread_mutex_unlock(&r->mu);
      break;
    }
    prune_retained(r);
    int n = 0;
    fds[n] = (struct pollfd){.fd = r->wake_rfd, .events = POLLIN};
    owner[n++] = -1;
    int64_t held = held_back_for(r);
    // keys sent and not yet told: told with claude's next output, or once TELL_MS went by without any
    int64_t tell = -1;
    for (int i = 0; i < MAX_TERMINALS; i++) {
      terminal *t = &r->terms[i];
      if (!t->used || !t->sent_len) continue;
      int64_t left = t->sent_at + TELL_MS - now_ms();
      if (tell < 0 || left < tell) tell = left < 0 ? 0 : left;
    }
    if (tell == 0) {
      tell_sent(r);
      tell = -1;
    }
    // events kept back after an echo: to JavaScript once ECHO_YIELD_MS went by
    int64_t yield = -1;
    if (r->yield_head) {
      yield = r->yield_until - now_ms();
      if (yield <= 0) {
        end_yield(r);
        yield = -1;
      }
    }
    if (r->pty_fd >= 0 && r->pty_reading && atomic_load(&r->unconsumed) < MAX_UNCONSUMED && held < 0) {
      fds[n] = (struct pollfd){.fd = r->pty_fd, .events = POLLIN};
      owner[n++] = -2;
    }
    if (r->pty_wfd >= 0 && r->pty_out.head) {
      fds[n] = (struct pollfd){.fd = r->pty_wfd, .events = POLLOUT};
      owner[n++] = -3;
    }
    int keys_room = r->pty_out.bytes < MAX_PENDING_INPUT;
    for (int i = 0; i < MAX_TERMINALS; i++) {
      terminal *t = &r->terms[i];
      if (!t->used) continue;
      if (t->reading && !t->paused && keys_room) {
        fds[n] = (struct pollfd){.fd = t->in_fd, .events = POLLIN};
        owner[n++] = i;
      }
      if (t->out.head && !t->dead) {
        fds[n] = (struct pollfd){.fd = t->out_fd, .events = POLLOUT};
        owner[n++] = i;
      }
    }
    pthread_mutex_unlock(&r->mu);

    // Held back: wake when the terminal counts as stopped, if it takes nothing before.
    int64_t wait = held < 0 ? -1 : held + 1;
    if (tell >= 0 && (wait < 0 || tell < wait)) wait = tell;
    if (yield >= 0 && (wait < 0 || yield < wait)) wait = yield;
    if (poll(fds, (nfds_t)n, (int)wait) < 0 && errno != EINTR) break;

    pthread_mutex_lock(&r->mu);
    if (fds[0].revents & POLLIN) wake_drain(r);
    for (int k = 1; k < n && !r->stopping; k++) {
      if (!fds[k].revents) continue;
      // JavaScript may have unbound the pty or let a terminal go while this thread polled: only
      // what is still bound to the same fd is touched.
      if (owner[k] == -2) {
        if (r->pty_fd == fds[k].fd && r->pty_reading) read_pty(r, buf, filtered);
        continue;
      }
      if (owner[k] == -3) {
        if (r->pty_wfd == fds[k].fd && queue_flush(&r->pty_out, r->pty_wfd) < 0) queue_clear(&r->pty_out);
        continue;
      }
      terminal *t = &r->terms[owner[k]];
      if (!t->used) continue;
      if (fds[k].fd == t->out_fd && fds[k].events == POLLOUT) flush_terminal(t);
      else if (fds[k].fd == t->in_fd && t->reading && !t->paused) read_terminal(r, t, buf);
    }
    pthread_mutex_unlock(&r->mu);
  }
  // what was kept back goes the way of every event posted before the stop
  pthread_mutex_lock(&r->mu);
  end_yield(r);
  pthread_mutex_unlock(&r->mu);
  free(buf);
  free(filtered);
  return NULL;
}

// ---- JavaScript's side

// Every fd the thread touches must not block it: a full pty or a stopped terminal waits in a queue.
static void nonblocking(int fd) {
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0 && !(flags & O_NONBLOCK)) fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

static napi_value undefined_value(napi_env env) {
  napi_value u;
  napi_get_undefined(env, &u);
  return u;
}

static void call_js(napi_env env, napi_value callback, void *context, void *data) {
  (void)context;
  event *e = data;
  if (env && callback) {
    napi_value argv[6], global;
    napi_create_int32(env, e->kind, &argv[0]);
    napi_create_int32(env, e->id, &argv[1]);
    napi_create_buffer_copy(env, e->len, e->len ? e->data : "", NULL, &argv[2]);
    napi_get_boolean(env, e->forwarded, &argv[3]);
    napi_create_uint32(env, e->gen, &argv[4]);
    // an input JavaScript was handed: its place among those (pass() names the last one it is through with)
    // an output's (or its echo's) place among claude's chunks: echo() names the last one a frame took in
    napi_create_double(env, (double)e->seq, &argv[5]);
    napi_get_global(env, &global);
    napi_call_function(env, global, callback, 6, argv, NULL);
  }
  // taken: a terminal that joins from now on was written this chunk by JavaScript
  if (e->kind == EV_OUTPUT) atomic_store(&e->r->consumed_seq, e->seq);
  free(e);
}

// The queue's unwritten bytes as one Buffer; the queue is left empty.
static napi_value take_queue(napi_env env, queue *q) {
  napi_value out;
  char *data = NULL;
  size_t len = q->bytes, at = 0;
  napi_create_buffer(env, len, (void **)&data, &out);
  for (chunk *c = q->head; c && at < len; c = c->next) {
    memcpy(data + at, c->data + c->off, c->len - c->off);
    at += c->len - c->off;
  }
  queue_clear(q);
  return out;
}

static relay *unwrap(napi_env env, napi_value value) {
  relay *r = NULL;
  napi_get_value_external(env, value, (void **)&r);
  return r;
}

static int int_arg(napi_env env, napi_value v) {
  int32_t x = -1;
  napi_get_value_int32(env, v, &x);
  return x;
}

static terminal *find_terminal(relay *r, int id) {
  for (int i = 0; i < MAX_TERMINALS; i++)
    if (r->terms[i].used && r->terms[i].id == id) return &r->terms[i];
  return NULL;
}

#define ARGS(count)          \
  size_t argc = count;       \
  napi_value argv[count];    \
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL)

// create(callback(kind, id, bytes, forwarded, gen, held)) -> relay
static napi_value create(napi_env env, napi_callback_info info) {
  ARGS(1);
  relay *r = calloc(1, sizeof(relay));
  if (!r) {
    napi_throw_error(env, NULL, "flower-pty fast relay: out of memory");
    return NULL;
  }
  pthread_mutex_init(&r->mu, NULL);
  title_filter_reset(&r->titles);
  r->pty_fd = -1;
  r->pty_wfd = -1;
  if (wake_open(r) < 0) {
    free(r);
    napi_throw_error(env, NULL, "flower-pty fast relay: no wake-up fd");
    return NULL;
  }
  napi_value name;
  napi_create_string_utf8(env, "flower-pty fast relay", NAPI_AUTO_LENGTH, &name);
  napi_create_threadsafe_function(env, argv[0], NULL, name, 0, 1, NULL, NULL, NULL, call_js, &r->tsfn);
  // The relay never keeps the process alive: the run server's own handles do.
  napi_unref_threadsafe_function(env, r->tsfn);
  pthread_create(&r->thread, NULL, run, r);
  napi_value out;
  napi_create_external(env, r, NULL, NULL, &out);
  return out;
}

// bindPty(relay, fd) -> gen: the thread reads claude's pty from now on (its writes: writerPty)
static napi_value bind_pty(napi_env env, napi_callback_info info) {
  ARGS(2);
  relay *r = unwrap(env, argv[0]);
  pthread_mutex_lock(&r->mu);
  r->pty_fd = int_arg(env, argv[1]);
  nonblocking(r->pty_fd);
  r->pty_reading = 1;
  r->pty_gen++;
  title_filter_reset(&r->titles);
  // another claude: its screen starts anew, whatever a pane's last frame said
  r->utf8_cut = 0;
  for (int i = 0; i < MAX_TERMINALS; i++) r->terms[i].echo.armed = 0;
  uint32_t gen = r->pty_gen;
  pthread_mutex_unlock(&r->mu);
  wake(r);
  napi_value out;
  napi_create_uint32(env, gen, &out);
  return out;
}

// unbindPty(relay): returns with the thread no longer reading the pty, so the caller may read it
// itself. An UNBOUND event follows every output event of that binding: then the caller has had them all.
static napi_value unbind_pty(napi_env env, napi_callback_info info) {
  ARGS(1);
  relay *r = unwrap(env, argv[0]);
  pthread_mutex_lock(&r->mu);
  tell_sent(r);
  if (r->pty_fd >= 0) post(r, EV_UNBOUND, -1, 0, 0, NULL, 0);
  r->pty_fd = -1;
  r->pty_reading = 0;
  pthread_mutex_unlock(&r->mu);
  wake(r);
  return undefined_value(env);
}

// writerPty(relay, fd | -1) -> Buffer: every write to claude goes to this pty from now on, queued
// without blocking; -1 lets go of it (returns with the thread off it, so the caller may close it).
// Returns what was queued for the previous pty and not yet written.
static napi_value writer_pty(napi_env env, napi_callback_info info) {
  ARGS(2);
  relay *r = unwrap(env, argv[0]);
  int fd = int_arg(env, argv[1]);
  pthread_mutex_lock(&r->mu);
  napi_value out = take_queue(env, &r->pty_out);
  r->pty_wfd = fd;
  if (fd >= 0) nonblocking(fd);
  pthread_mutex_unlock(&r->mu);
  wake(r);
  return out;
}

static void bytes_arg(napi_env env, napi_value v, char **data, size_t *len) {
  bool is_buffer = false;
  napi_is_buffer(env, v, &is_buffer);
  *data = NULL;
  *len = 0;
  if (is_buffer) napi_get_buffer_info(env, v, (void **)data, len);
}

// writePty(relay, bytes)
static napi_value write_pty(napi_env env, napi_callback_info info) {
  ARGS(2);
  relay *r = unwrap(env, argv[0]);
  char *data;
  size_t len;
  bytes_arg(env, argv[1], &data, &len);
  pthread_mutex_lock(&r->mu);
  if (r->pty_wfd >= 0) write_to_pty(r, data, len);
  // The thread need only hear of it when something waits for room (a key normally goes out at once).
  int waiting = r->pty_out.head != NULL;
  pthread_mutex_unlock(&r->mu);
  if (waiting) wake(r);
  return undefined_value(env);
}

// join(relay, id, { input, output, key: Buffer | null, pass: Buffer | null }) -> bool: the thread reads the
// terminal's keys (the fd `input`) and writes claude's output to it (the fd `output`); the output
// JavaScript had not taken when it called is sent first. With `pass` (256 bytes, non-zero: a byte that
// may go straight to claude) it reads the keys alone, and the pass-through starts closed.
static napi_value join_terminal(napi_env env, napi_callback_info info) {
  ARGS(3);
  relay *r = unwrap(env, argv[0]);
  napi_value in_v, out_v, key_v, pass_v;
  napi_get_named_property(env, argv[2], "input", &in_v);
  napi_get_named_property(env, argv[2], "output", &out_v);
  napi_get_named_property(env, argv[2], "key", &key_v);
  napi_get_named_property(env, argv[2], "pass", &pass_v);
  char *key, *pass;
  size_t key_len, pass_len;
  bytes_arg(env, key_v, &key, &key_len);
  bytes_arg(env, pass_v, &pass, &pass_len);
  bool ok = false;
  pthread_mutex_lock(&r->mu);
  for (int i = 0; i < MAX_TERMINALS && !ok && key_len <= MAX_KEY; i++) {
    terminal *t = &r->terms[i];
    if (t->used) continue;
    memset(t, 0, sizeof *t);
    t->used = 1;
    t->id = int_arg(env, argv[1]);
    t->in_fd = int_arg(env, in_v);
    t->out_fd = int_arg(env, out_v);
    t->reading = 1;
    t->took_at = now_ms();
    nonblocking(t->in_fd);
    nonblocking(t->out_fd);
    t->key_len = key_len;
    if (key_len) memcpy(t->key, key, key_len);
    if (pass_len == sizeof t->pass) {
      t->keys_only = 1;
      memcpy(t->pass, pass, sizeof t->pass);
      ok = true;
      break;
    }
    // Everything up to what JavaScript has taken, it wrote to this terminal itself; the rest comes from here.
    uint64_t taken = atomic_load(&r->consumed_seq);
    for (chunk *c = r->retained.head; c; c = c->next)
      if (c->seq > taken) queue_append(&t->out, c->data, c->len, c->seq);
    flush_terminal(t);
    ok = true;
  }
  pthread_mutex_unlock(&r->mu);
  wake(r);
  napi_value out;
  napi_get_boolean(env, ok, &out);
  return out;
}

// leave(relay, id) -> Buffer: the thread lets the terminal go; what it had not written yet is returned
static napi_value leave_terminal(napi_env env, napi_callback_info info) {
  ARGS(2);
  relay *r = unwrap(env, argv[0]);
  pthread_mutex_lock(&r->mu);
  terminal *t = find_terminal(r, int_arg(env, argv[1]));
  tell_sent(r);
  if (t && t->dead) queue_clear(&t->out);
  napi_value out = take_queue(env, t ? &t->out : &(queue){0});
  if (t) t->used = 0;
  pthread_mutex_unlock(&r->mu);
  wake(r);
  return out;
}

// write(relay, id, bytes): after everything already queued for that terminal
static napi_value write_terminal(napi_env env, napi_callback_info info) {
  ARGS(3);
  relay *r = unwrap(env, argv[0]);
  char *data;
  size_t len;
  bytes_arg(env, argv[2], &data, &len);
  pthread_mutex_lock(&r->mu);
  terminal *t = find_terminal(r, int_arg(env, argv[1]));
  if (t && !t->dead) {
    queue_append(&t->out, data, len, 0);
    flush_terminal(t);
  }
  pthread_mutex_unlock(&r->mu);
  wake(r);
  return undefined_value(env);
}

// pass(relay, id, held, open): JavaScript is through with the reads it was handed up to `held`; the
// pass-through opens (or stays closed) only if no read was handed to it since.
static napi_value pass_through(napi_env env, napi_callback_info info) {
  ARGS(4);
  relay *r = unwrap(env, argv[0]);
  double held = 0;
  napi_get_value_double(env, argv[2], &held);
  bool open = false;
  napi_get_value_bool(env, argv[3], &open);
  pthread_mutex_lock(&r->mu);
  terminal *t = find_terminal(r, int_arg(env, argv[1]));
  if (t && t->keys_only && (double)t->held == held) t->pass_open = open;
  pthread_mutex_unlock(&r->mu);
  return undefined_value(env);
}

// pause(relay, id, paused): the thread stops reading the terminal's keys (an editor has it), the
// pass-through closed, or reads on
static napi_value pause_terminal(napi_env env, napi_callback_info info) {
  ARGS(3);
  relay *r = unwrap(env, argv[0]);
  bool paused = false;
  napi_get_value_bool(env, argv[2], &paused);
  pthread_mutex_lock(&r->mu);
  terminal *t = find_terminal(r, int_arg(env, argv[1]));
  if (t) {
    t->paused = paused;
    if (paused) t->pass_open = 0;
  }
  pthread_mutex_unlock(&r->mu);
  wake(r);
  return undefined_value(env);
}

// echo(relay, id, null) -> Buffer: JavaScript is about to write the terminal: the thread draws no echo on it
// from now on, and hands back what of its last one the terminal has not taken yet (written first).
// echo(relay, id, [seq, x, y, w, h, ox, oy, sync], beside?) -> Buffer (empty): a frame is out and the pane's
// state is that after output `seq` (the cursor x, y in a pane of w × h at ox, oy; sync: the terminal takes
// synchronized output): the thread may draw the echo in the next output, if that comes next; an output
// read since then leaves it disarmed. `beside`: what redraws the cells beside the pane on its rows (a
// Buffer; null: the pane is not to be scrolled here; left out: the last one still holds).
static napi_value echo_arm(napi_env env, napi_callback_info info) {
  ARGS(4);
  relay *r = unwrap(env, argv[0]);
  bool is_array = false;
  napi_is_array(env, argv[2], &is_array);
  double v[8] = {0};
  uint32_t count = 0;
  if (is_array) napi_get_array_length(env, argv[2], &count);
  for (uint32_t i = 0; is_array && i < 8 && i < count; i++) {
    napi_value item;
    napi_get_element(env, argv[2], i, &item);
    napi_get_value_double(env, item, &v[i]);
  }
  pthread_mutex_lock(&r->mu);
  terminal *t = find_terminal(r, int_arg(env, argv[1]));
  napi_value out;
  if (t && t->keys_only && is_array && count == 8) {
    // only the state after the latest output read: an arm that comes late is stale and ignored
    int ok = (uint64_t)v[0] == r->seq && !t->out.head;
    for (int i = 1; i < 7; i++) ok = ok && v[i] >= 0 && v[i] <= 65535;
    napi_valuetype beside_type = napi_undefined;
    if (argc >= 4) napi_typeof(env, argv[3], &beside_type);
    if (beside_type != napi_undefined) {
      char *beside = NULL;
      size_t beside_len = 0;
      bool is_buffer = false;
      napi_is_buffer(env, argv[3], &is_buffer);
      if (is_buffer) bytes_arg(env, argv[3], &beside, &beside_len);
      // too much to put back (or not a buffer): that pane is not scrolled here
      t->has_beside = is_buffer && beside_len <= ECHO_BESIDE_MAX;
      t->beside_len = t->has_beside ? beside_len : 0;
      if (t->beside_len) memcpy(t->beside, beside, beside_len);
    }
    t->echo = (echo_state){.armed = ok, .seq = r->seq, .x = (int)v[1], .y = (int)v[2], .w = (int)v[3], .h = (int)v[4], .ox = (int)v[5], .oy = (int)v[6],
                           .sync = v[7] != 0, .beside = t->has_beside ? t->beside : NULL, .beside_len = t->beside_len};
    napi_create_buffer(env, 0, NULL, &out);
  } else {
    if (t) t->echo.armed = 0;
    out = take_queue(env, t ? &t->out : &(queue){0});
  }
  pthread_mutex_unlock(&r->mu);
  return out;
}

// echoPlan([x, y, w, h, ox, oy, sync], bytes, beside?) -> Buffer | null: echo_plan alone (for its tests)
static napi_value echo_plan_js(napi_env env, napi_callback_info info) {
  ARGS(3);
  double v[7] = {0};
  for (uint32_t i = 0; i < 7; i++) {
    napi_value item;
    if (napi_get_element(env, argv[0], i, &item) == napi_ok) napi_get_value_double(env, item, &v[i]);
  }
  char *data, *beside = NULL;
  size_t len, beside_len = 0;
  bytes_arg(env, argv[1], &data, &len);
  bool is_buffer = false;
  if (argc >= 3) napi_is_buffer(env, argv[2], &is_buffer);
  if (is_buffer) bytes_arg(env, argv[2], &beside, &beside_len);
  echo_state s = {.armed = 1, .x = (int)v[0], .y = (int)v[1], .w = (int)v[2], .h = (int)v[3], .ox = (int)v[4], .oy = (int)v[5], .sync = v[6] != 0, .beside = beside, .beside_len = beside_len};
  char *out = malloc(ECHO_PLAN_CAP);
  size_t n = out ? echo_plan(&s, (const unsigned char *)data, len, out) : 0;
  napi_value result;
  if (n) napi_create_buffer_copy(env, n, out, NULL, &result);
  else napi_get_null(env, &result);
  free(out);
  return result;
}

// backlog(relay, id) -> bytes queued for the terminal and not yet taken by it
static napi_value backlog(napi_env env, napi_callback_info info) {
  ARGS(2);
  relay *r = unwrap(env, argv[0]);
  pthread_mutex_lock(&r->mu);
  terminal *t = find_terminal(r, int_arg(env, argv[1]));
  double bytes = t ? (double)t->out.bytes : 0;
  pthread_mutex_unlock(&r->mu);
  napi_value out;
  napi_create_double(env, bytes, &out);
  return out;
}

// pending(relay) -> bytes queued for claude's pty and not yet taken by it
static napi_value pending(napi_env env, napi_callback_info info) {
  ARGS(1);
  relay *r = unwrap(env, argv[0]);
  pthread_mutex_lock(&r->mu);
  double bytes = (double)r->pty_out.bytes;
  pthread_mutex_unlock(&r->mu);
  napi_value out;
  napi_create_double(env, bytes, &out);
  return out;
}

// ack(relay, bytes): JavaScript is through with this much output: the thread may read that much more
static napi_value ack(napi_env env, napi_callback_info info) {
  ARGS(2);
  relay *r = unwrap(env, argv[0]);
  int64_t n = 0;
  napi_get_value_int64(env, argv[1], &n);
  size_t before = atomic_fetch_sub(&r->unconsumed, (size_t)n);
  if (before >= MAX_UNCONSUMED && before - (size_t)n < MAX_UNCONSUMED) wake(r);
  return undefined_value(env);
}

// close(relay): the thread ends; fds stay open (they are JavaScript's)
static napi_value close_relay(napi_env env, napi_callback_info info) {
  ARGS(1);
  relay *r = unwrap(env, argv[0]);
  pthread_mutex_lock(&r->mu);
  int was = r->stopping;
  r->stopping = 1;
  pthread_mutex_unlock(&r->mu);
  if (was) return undefined_value(env);
  wake(r);
  pthread_join(r->thread, NULL);
  wake_close(r);
  napi_release_threadsafe_function(r->tsfn, napi_tsfn_abort);
  return undefined_value(env);
}

// filter(bytes[]) -> Buffer[]: the title filter alone, chunk by chunk (for the parity test)
static napi_value filter_chunks(napi_env env, napi_callback_info info) {
  ARGS(1);
  title_filter *scratch = malloc(sizeof *scratch);
  if (!scratch) {
    napi_throw_error(env, NULL, "flower-pty fast relay: out of memory");
    return NULL;
  }
  title_filter_reset(scratch);
  uint32_t count = 0;
  napi_get_array_length(env, argv[0], &count);
  napi_value out;
  napi_create_array_with_length(env, count, &out);
  for (uint32_t i = 0; i < count; i++) {
    napi_value item, result;
    napi_get_element(env, argv[0], i, &item);
    char *data;
    size_t len;
    bytes_arg(env, item, &data, &len);
    char *filtered = malloc(HELD_CAP + len);
    size_t n = filtered ? title_filter_push(scratch, data, len, filtered) : 0;
    napi_create_buffer_copy(env, n, n ? filtered : "", NULL, &result);
    free(filtered);
    napi_set_element(env, out, i, result);
  }
  free(scratch);
  return out;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"create", NULL, create, NULL, NULL, NULL, napi_default, NULL},
      {"bindPty", NULL, bind_pty, NULL, NULL, NULL, napi_default, NULL},
      {"unbindPty", NULL, unbind_pty, NULL, NULL, NULL, napi_default, NULL},
      {"writePty", NULL, write_pty, NULL, NULL, NULL, napi_default, NULL},
      {"writerPty", NULL, writer_pty, NULL, NULL, NULL, napi_default, NULL},
      {"join", NULL, join_terminal, NULL, NULL, NULL, napi_default, NULL},
      {"leave", NULL, leave_terminal, NULL, NULL, NULL, napi_default, NULL},
      {"write", NULL, write_terminal, NULL, NULL, NULL, napi_default, NULL},
      {"backlog", NULL, backlog, NULL, NULL, NULL, napi_default, NULL},
      {"pass", NULL, pass_through, NULL, NULL, NULL, napi_default, NULL},
      {"pause", NULL, pause_terminal, NULL, NULL, NULL, napi_default, NULL},
      {"ack", NULL, ack, NULL, NULL, NULL, napi_default, NULL},
      {"pending", NULL, pending, NULL, NULL, NULL, napi_default, NULL},
      {"close", NULL, close_relay, NULL, NULL, NULL, napi_default, NULL},
      {"filter", NULL, filter_chunks, NULL, NULL, NULL, napi_default, NULL},
      {"echo", NULL, echo_arm, NULL, NULL, NULL, napi_default, NULL},
      {"echoPlan", NULL, echo_plan_js, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  // Which wake-up this build has: the tests check that the pipe build they asked for is the one loaded.
  napi_value wake;
  napi_create_string_utf8(env, WAKE_KIND, NAPI_AUTO_LENGTH, &wake);
  napi_set_named_property(env, exports, "wake", wake);
  return exports;
}

NAPI_MODULE(fast_relay, init)
