// The relay's title filter (fast-relay.c): claude's output without its title sequences (OSC 0/1/2), the
// same decisions as src/core/screen/title-filter.ts chunk by chunk (test/adapters/fast-relay.test.ts holds
// the two together), in bounded memory and linear time whatever the bytes (native/fuzz/ proves it).
//
// An unterminated "title" is carried between chunks until it ends; past MAX_HELD UTF-16 units (what
// JavaScript counts, the units its UTF-8 decoder makes of these bytes, a stray byte one U+FFFD) it is no
// title and goes through. A unit is at most 3 bytes, so the carry is at most HELD_CAP bytes: a fixed array,
// appended to, each byte looked at once (a carry re-copied and re-scanned on every read was quadratic).
#ifndef FLOWER_PTY_TITLE_FILTER_H
#define FLOWER_PTY_TITLE_FILTER_H
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

// An unterminated "title" longer than this is not a title: let it through (title-filter.ts: MAX_HELD).
// (native/fuzz/ also builds it with a small one, to reach the cap with small inputs.)
#ifndef MAX_HELD
#define MAX_HELD 4096
#endif
// The carry's bytes: the title's MAX_HELD units at 3 bytes each, a character cut short (3), a lone ESC
// before the title (1). A filter's output is at most the carry and the chunk: HELD_CAP + chunk bytes.
#define HELD_CAP (3 * MAX_HELD + 8)

// A UTF-8 decoder as WHATWG (and so Node) decodes, counting the UTF-16 units it would make.
typedef struct {
  unsigned char needed, seen, lower, upper;
} utf8_count;

static void utf8_count_reset(utf8_count *d) {
  d->needed = d->seen = 0;
  d->lower = 0x80;
  d->upper = 0xBF;
}

static size_t utf8_units(utf8_count *d, const unsigned char *p, size_t n) {
  size_t units = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char b = p[i];
    if (!d->needed) {
      if (b <= 0x7F) units++;
      else if (b >= 0xC2 && b <= 0xDF) d->needed = 1;
      else if (b >= 0xE0 && b <= 0xEF) {
        if (b == 0xE0) d->lower = 0xA0;
        if (b == 0xED) d->upper = 0x9F;
        d->needed = 2;
      } else if (b >= 0xF0 && b <= 0xF4) {
        if (b == 0xF0) d->lower = 0x90;
        if (b == 0xF4) d->upper = 0x8F;
        d->needed = 3;
      } else units++; // a byte no character starts with: U+FFFD
      continue;
    }
    if (b < d->lower || b > d->upper) {
      // the character is cut short: U+FFFD for what came, and this byte starts afresh
      utf8_count_reset(d);
      units++;
      i--;
      continue;
    }
    d->lower = 0x80;
    d->upper = 0xBF;
    if (++d->seen == d->needed) {
      units += d->needed == 3 ? 2 : 1; // past U+FFFF: a surrogate pair
      d->needed = d->seen = 0;
    }
  }
  return units;
}

typedef struct {
  char held[HELD_CAP];
  size_t held_len;
  // held is a title not yet ended, from held[title_at] (0, or 1 after a lone ESC); else a cut introducer
  // ("ESC ]", "ESC ] 0", a lone ESC: at most 4 bytes)
  int in_title;
  size_t title_at;
  size_t units; // the title's UTF-16 units so far, as JavaScript counts them
  utf8_count decoder;
} title_filter;

static void title_filter_reset(title_filter *f) {
  f->held_len = 0;
  f->in_title = 0;
  f->title_at = 0;
  f->units = 0;
  utf8_count_reset(&f->decoder);
}

static size_t emit(char *out, size_t at, const char *data, size_t len) {
  if (len) memcpy(out + at, data, len);
  return at + len;
}

// A title that has not ended, given the next chunk: its end looked for in the new bytes only. Returns how
// many of the chunk's bytes it took (all of them unless it ended), with `*out_len` grown by what it let out.
static size_t title_continue(title_filter *f, const char *p, size_t n, char *out, size_t *out_len) {
  size_t body = f->title_at + 4, end = n;
  if (n && p[0] == '\\' && f->held_len > body && f->held[f->held_len - 1] == '\x1b') end = 0; // ESC \ across the cut
  for (size_t i = 0; end == n && i < n; i++) {
    if (p[i] == '\x07') end = i;
    else if (p[i] == '\x1b' && i + 1 < n && p[i + 1] == '\\') end = i + 1;
  }
  if (end < n) {
    *out_len = emit(out, *out_len, f->held, f->title_at); // the lone ESC before it; the title itself is gone
    title_filter_reset(f);
    return end + 1;
  }
  f->units += utf8_units(&f->decoder, (const unsigned char *)p, n);
  if (f->units > MAX_HELD || n > HELD_CAP - f->held_len) {
    // no title: everything held and this chunk go through (the second test never decides alone: the
    // units reach MAX_HELD first, see HELD_CAP; it keeps the array's bound whatever)
    *out_len = emit(out, *out_len, f->held, f->held_len);
    *out_len = emit(out, *out_len, p, n);
    title_filter_reset(f);
    return n;
  }
  memcpy(f->held + f->held_len, p, n);
  f->held_len += n;
  return n;
}

static const char *find2(const char *s, size_t from, size_t len, char a, char b) {
  for (size_t i = from; i + 1 < len; i++)
    if (s[i] == a && s[i + 1] == b) return s + i;
  return NULL;
}

// title-filter.ts's loop over the short carry (not a title) and the rest of the chunk, in `text`.
static size_t title_scan(title_filter *f, const char *text, size_t len, char *out, size_t out_len) {
  size_t pos = 0, end_of_text = len;
  const char *new_held = NULL;
  size_t new_held_len = 0;
  int title = 0;
  utf8_count decoder;
  size_t units = 0;
  for (;;) {
    const char *found = find2(text, pos, len, '\x1b', ']');
    if (!found) break;
    size_t start = (size_t)(found - text);
    int has_kind = start + 2 < len;
    char kind = has_kind ? text[start + 2] : 0;
    int title_kind = kind == '0' || kind == '1' || kind == '2';
    if (!has_kind || (start + 3 >= len && title_kind)) {
      new_held = text + start; // cut right after its introducer: wait for more
      new_held_len = len - start;
      end_of_text = start;
      break;
    }
    if (!(title_kind && text[start + 3] == ';')) {
      out_len = emit(out, out_len, text + pos, start + 2 - pos);
      pos = start + 2;
      continue;
    }
    size_t body = start + 4, end = len;
    for (size_t i = body; end == len && i < len; i++) {
      if (text[i] == '\x07') end = i;
      else if (text[i] == '\x1b' && i + 1 < len && text[i + 1] == '\\') end = i + 1;
    }
    if (end == len) {
      utf8_count_reset(&decoder);
      units = utf8_units(&decoder, (const unsigned char *)text + start, len - start);
      if (units > MAX_HELD || len - start > HELD_CAP - 1) {
        out_len = emit(out, out_len, text + pos, len - pos);
        pos = end_of_text = len;
      } else {
        new_held = text + start;
        new_held_len = len - start;
        end_of_text = start;
        title = 1;
      }
      break;
    }
    out_len = emit(out, out_len, text + pos, start - pos);
    pos = end + 1;
  }
  size_t rest = end_of_text > pos ? end_of_text - pos : 0;
  // a lone ESC at the very end may start a title: hold it
  int lone_esc = rest > 0 && text[pos + rest - 1] == '\x1b';
  if (lone_esc) rest--;
  out_len = emit(out, out_len, text + pos, rest);
  title_filter_reset(f);
  if (lone_esc) f->held[f->held_len++] = '\x1b';
  if (new_held_len) memmove(f->held + f->held_len, new_held, new_held_len);
  if (title) {
    f->in_title = 1;
    f->title_at = f->held_len;
    f->units = units;
    f->decoder = decoder;
  }
  f->held_len += new_held_len;
  return out_len;
}

// title-filter.ts's push(), on bytes: `out` (room for HELD_CAP + len bytes) gets the chunk without title
// sequences; returns its length.
static size_t title_filter_push(title_filter *f, const char *chunk, size_t len, char *out) {
  size_t out_len = 0;
  if (f->in_title) {
    size_t took = title_continue(f, chunk, len, out, &out_len);
    chunk += took;
    len -= took;
    if (f->in_title || !len) return out_len;
  }
  if (!f->held_len) return len ? title_scan(f, chunk, len, out, out_len) : out_len;
  // A short carry (a cut introducer, a lone ESC: at most 4 bytes) goes before the chunk, in one piece.
  size_t carried = f->held_len;
  char *text = malloc(carried + len);
  if (!text) {
    // no room to look: the bytes go through as they are, none lost
    out_len = emit(out, out_len, f->held, carried);
    out_len = emit(out, out_len, chunk, len);
    title_filter_reset(f);
    return out_len;
  }
  memcpy(text, f->held, carried);
  if (len) memcpy(text + carried, chunk, len);
  out_len = title_scan(f, text, carried + len, out, out_len);
  free(text);
  return out_len;
}

#endif
