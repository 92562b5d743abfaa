// JSON as the native clients read and write it (hook-client.c, attach-client.c): a validating reader
// over a byte range (a value is read whole or refused, as JSON.parse would), the member of an object by its
// key, and a string written as JSON. Include byte-buffer.h first.
#ifndef FLOWER_PTY_JSON_TEXT_H
#define FLOWER_PTY_JSON_TEXT_H
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef FLOWER_PTY_BYTE_BUFFER_H
#error "include byte-buffer.h before json-text.h"
#endif

#ifndef MAX_DEPTH
#define MAX_DEPTH 512
#endif

typedef struct {
  const char *p, *end;
} cursor;

static void skip_ws(cursor *c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) c->p++;
}

static int hex4(const char *p, unsigned *out) {
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char h = p[i];
    v <<= 4;
    if (h >= '0' && h <= '9') v |= (unsigned)(h - '0');
    else if (h >= 'a' && h <= 'f') v |= (unsigned)(h - 'a' + 10);
    else if (h >= 'A' && h <= 'F') v |= (unsigned)(h - 'A' + 10);
    else return 0;
  }
  *out = v;
  return 1;
}

static void put_utf8(buf *b, unsigned cp) {
  char s[4];
  size_t n;
  if (cp < 0x80) s[0] = (char)cp, n = 1;
  else if (cp < 0x800) s[0] = (char)(0xc0 | cp >> 6), s[1] = (char)(0x80 | (cp & 0x3f)), n = 2;
  else if (cp < 0x10000) s[0] = (char)(0xe0 | cp >> 12), s[1] = (char)(0x80 | (cp >> 6 & 0x3f)), s[2] = (char)(0x80 | (cp & 0x3f)), n = 3;
  else s[0] = (char)(0xf0 | cp >> 18), s[1] = (char)(0x80 | (cp >> 12 & 0x3f)), s[2] = (char)(0x80 | (cp >> 6 & 0x3f)), s[3] = (char)(0x80 | (cp & 0x3f)), n = 4;
  put(b, s, n);
}

// A string at c->p (its opening quote): copied as written to `raw`, decoded to `text` (a lone
// surrogate becomes U+FFFD, as Node writes one); either may be NULL. 0 when it is not valid JSON.
static int read_string(cursor *c, buf *raw, buf *text) {
  const char *start = c->p++;
  while (c->p < c->end) {
    unsigned char ch = (unsigned char)*c->p;
    if (ch == '"') {
      c->p++;
      if (raw) put(raw, start, (size_t)(c->p - start));
      return 1;
    }
    if (ch < 0x20) return 0;
    if (ch != '\\') {
      if (text) put(text, c->p, 1);
      c->p++;
      continue;
    }
    if (c->end - c->p < 2) return 0;
    char e = c->p[1];
    const char *simple = strchr("\"\\/bfnrt", e);
    if (e && simple) {
      static const char decoded[] = "\"\\/\b\f\n\r\t";
      if (text) put(text, &decoded[simple - "\"\\/bfnrt"], 1);
      c->p += 2;
      continue;
    }
    unsigned cp;
    if (e != 'u' || c->end - c->p < 6 || !hex4(c->p + 2, &cp)) return 0;
    c->p += 6;
    if (cp >= 0xd800 && cp < 0xdc00 && c->end - c->p >= 6 && c->p[0] == '\\' && c->p[1] == 'u') {
      unsigned low;
      if (hex4(c->p + 2, &low) && low >= 0xdc00 && low < 0xe000) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        c->p += 6;
      }
    }
    if (cp >= 0xd800 && cp < 0xe000) cp = 0xfffd;
    if (text) put_utf8(text, cp);
  }
  return 0;
}

static int read_value(cursor *c, buf *out, int depth);

// Whether the JSON number text [p, end) is too large for a double (JSON.parse reads it as ±Infinity). Its
// decimal exponent E (the value is 0.d… × 10^E) decides, but for E = 309, where strtod looks at its first
// digits: the largest finite double rounds from below an integer of 309 digits, so digits past those never
// change the answer.
static int number_overflows(const char *p, const char *end) {
  const char *q = p, *first = NULL;
  if (q < end && *q == '-') q++;
  long whole = 0, seen = 0, lead = -1; // digits before the point, digits so far, where the first non-zero one is
  int fraction = 0;
  for (; q < end && *q != 'e' && *q != 'E'; q++) {
    if (*q == '.') {
      fraction = 1;
      continue;
    }
    if (lead < 0 && *q != '0') lead = seen, first = q;
    seen++;
    if (!fraction) whole++;
  }
  if (lead < 0) return 0; // zero
  long e = whole - lead;
  if (q < end && (*q == 'e' || *q == 'E')) {
    q++;
    int negative = q < end && *q == '-';
    if (q < end && (*q == '+' || *q == '-')) q++;
    long x = 0;
    for (; q < end && *q >= '0' && *q <= '9'; q++)
      if (x < 100000000) x = x * 10 + (*q - '0');
    e += negative ? -x : x;
  }
  if (e <= 308) return 0;
  if (e >= 310) return 1;
  char text[420];
  size_t n = 0;
  text[n++] = '0';
  text[n++] = '.';
  for (const char *r = first; r < end && n < 400 && *r != 'e' && *r != 'E'; r++)
    if (*r >= '0' && *r <= '9') text[n++] = *r;
  memcpy(text + n, "e309", 5);
  return isinf(strtod(text, NULL));
}

static int read_number(cursor *c, buf *out) {
  const char *start = c->p;
  if (c->p < c->end && *c->p == '-') c->p++;
  if (c->p >= c->end) return 0;
  if (*c->p == '0') c->p++;
  else if (*c->p >= '1' && *c->p <= '9') while (c->p < c->end && *c->p >= '0' && *c->p <= '9') c->p++;
  else return 0;
  if (c->p < c->end && *c->p == '.') {
    c->p++;
    if (c->p >= c->end || *c->p < '0' || *c->p > '9') return 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') c->p++;
  }
  if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
    c->p++;
    if (c->p < c->end && (*c->p == '+' || *c->p == '-')) c->p++;
    if (c->p >= c->end || *c->p < '0' || *c->p > '9') return 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') c->p++;
  }
  // A copy is what JSON.stringify would write of it: a number too large for a double is null.
  if (out && number_overflows(start, c->p)) put(out, "null", 4);
  else if (out) put(out, start, (size_t)(c->p - start));
  return 1;
}

// An array or object: its members, separated by commas, each a value or a "key": value.
static int read_members(cursor *c, buf *out, int depth, char close, int keyed) {
  if (out) put(out, c->p, 1);
  c->p++;
  skip_ws(c);
  if (c->p < c->end && *c->p == close) {
    if (out) put(out, &close, 1);
    c->p++;
    return 1;
  }
  for (;;) {
    skip_ws(c);
    if (keyed) {
      if (c->p >= c->end || *c->p != '"' || !read_string(c, out, NULL)) return 0;
      skip_ws(c);
      if (c->p >= c->end || *c->p != ':') return 0;
      if (out) put(out, ":", 1);
      c->p++;
    }
    if (!read_value(c, out, depth + 1)) return 0;
    skip_ws(c);
    if (c->p >= c->end) return 0;
    char ch = *c->p++;
    if (out) put(out, &ch, 1);
    if (ch == close) return 1;
    if (ch != ',') return 0;
  }
}

static int read_value(cursor *c, buf *out, int depth) {
  if (depth > MAX_DEPTH) return 0;
  skip_ws(c);
  if (c->p >= c->end) return 0;
  switch (*c->p) {
    case '"': return read_string(c, out, NULL);
    case '{': return read_members(c, out, depth, '}', 1);
    case '[': return read_members(c, out, depth, ']', 0);
    default: break;
  }
  static const char *const words[] = {"true", "false", "null"};
  for (int i = 0; i < 3; i++) {
    size_t n = strlen(words[i]);
    if ((size_t)(c->end - c->p) >= n && memcmp(c->p, words[i], n) == 0) {
      if (out) put(out, c->p, n);
      c->p += n;
      return 1;
    }
  }
  return read_number(c, out);
}

// The value of `key` in the JSON object data[0..len), the last one as JSON.parse keeps it: `at` spans it.
// 0 when the object is not valid JSON or has no such member.
static int find_member(const char *data, size_t len, const char *key, cursor *at) {
  cursor c = {data, data + len};
  buf name = {0};
  int found = 0;
  size_t klen = strlen(key);
  skip_ws(&c);
  if (c.p >= c.end || *c.p++ != '{') goto fail;
  skip_ws(&c);
  if (c.p < c.end && *c.p == '}') {
    c.p++;
    goto end;
  }
  for (;;) {
    skip_ws(&c);
    name.len = 0;
    if (c.p >= c.end || *c.p != '"' || !read_string(&c, NULL, &name)) goto fail;
    skip_ws(&c);
    if (c.p >= c.end || *c.p++ != ':') goto fail;
    skip_ws(&c);
    const char *start = c.p;
    if (!read_value(&c, NULL, 1)) goto fail;
    if (name.len == klen && memcmp(name.data, key, klen) == 0) {
      at->p = start;
      at->end = c.p;
      found = 1;
    }
    skip_ws(&c);
    if (c.p >= c.end) goto fail;
    char ch = *c.p++;
    if (ch == '}') break;
    if (ch != ',') goto fail;
  }
end:
  skip_ws(&c);
  if (c.p != c.end) goto fail;
  free(name.data);
  return found;
fail:
  free(name.data);
  return 0;
}

static void put_json_string(buf *b, const char *s) {
  put(b, "\"", 1);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') {
      char e[2] = {'\\', (char)ch};
      put(b, e, 2);
    } else if (ch < 0x20) {
      static const char hex[] = "0123456789abcdef";
      char e[6] = {'\\', 'u', '0', '0', hex[ch >> 4], hex[ch & 15]};
      put(b, e, 6);
    } else {
      put(b, s, 1);
    }
  }
  put(b, "\"", 1);
}

#endif
