// The one terminal boundary of src/core/terminal-text.ts, for the native attach client's lines: text it
// did not compose (a path, a server's message) is written with C0, DEL, C1 (as UTF-8 and as a lone byte)
// and the bidi controls shown as the same visible escapes, so a folder name can neither set the clipboard,
// retitle the window nor ask the terminal for an answer. Well-formed UTF-8 is otherwise written as it is.
// test/security/terminal-boundary.test.ts holds both to the same cases.

#ifndef FLOWER_TERMINAL_TEXT_H
#define FLOWER_TERMINAL_TEXT_H

#include <stdio.h>
#include <string.h>

// The length of the well-formed UTF-8 sequence at s (RFC 3629), or 0; as sequenceLength in terminal-text.ts.
static size_t utf8_length(const unsigned char *s) {
  unsigned char lead = s[0];
  int n = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  if (!n) return 0;
  unsigned char lo = lead == 0xe0 ? 0xa0 : lead == 0xf0 ? 0x90 : 0x80;
  unsigned char hi = lead == 0xed ? 0x9f : lead == 0xf4 ? 0x8f : 0xbf;
  if (s[1] < lo || s[1] > hi) return 0; // also stops at the string's end (0 is no continuation byte)
  for (int k = 2; k < n; k++)
    if (s[k] < 0x80 || s[k] > 0xbf) return 0;
  return (size_t)n;
}

static int is_terminal_control(unsigned cp) {
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

// Any bytes, NULs included (a server's message carries its length): each NUL is a control like the rest.
static void put_terminal_bytes(FILE *out, const char *text, size_t len) {
  const unsigned char *s = (const unsigned char *)text, *end = s + len;
  while (s < end) {
    if (*s < 0x80) {
      if (is_terminal_control(*s)) fprintf(out, *s < 0x20 ? "\\x%02x" : "\\u%04x", *s);
      else fputc(*s, out);
      s++;
      continue;
    }
    // utf8_length reads up to four bytes and stops at a 0: give it those of the text, 0-padded at its end
    unsigned char head[5] = {0};
    for (size_t k = 0; k < 4 && s + k < end; k++) head[k] = s[k];
    size_t n = utf8_length(head);
    if (!n) {
      fprintf(out, "\\x%02x", *s++); // a lone byte: 0x9B is CSI to a terminal not in UTF-8
      continue;
    }
    unsigned cp = n == 2 ? (s[0] & 0x1fu) << 6 | (s[1] & 0x3fu) : n == 3 ? (s[0] & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu)
                                                   : 0x10000; // no character past U+FFFF is a control
    if (is_terminal_control(cp)) fprintf(out, "\\u%04x", cp);
    else fwrite(s, 1, n, out);
    s += n;
  }
}

static void put_terminal_text(FILE *out, const char *text) { put_terminal_bytes(out, text, strlen(text)); }

#endif
