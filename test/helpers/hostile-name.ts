// A project folder name an archive can carry that sets the clipboard (OSC 52), retitles the window (OSC 0),
// asks the terminal for an answer that arrives as typed input (CSI 6n), starts a C1 CSI (U+009B) and
// reverses the text after it (U+202E); and a search for what a terminal acts on in the bytes written to one.

const ESC = '\u001b';
export const HOSTILE_NAME = `p-${ESC}]52;c;U1RPTEVO\u0007-${ESC}]0;TITLE-PWN\u0007-${ESC}[6n-\u009b31m-\u202e x`;

/** the sequences of HOSTILE_NAME as a terminal would obey them, in what a terminal received (read as UTF-8):
 *  any clipboard write, a title holding its words, its CSI 6n, any C1 control, any right-to-left override */
export const HOSTILE_SEQUENCES =
  /\u001b\]52;|\u001b\][012];[^\u0007\u001b]*TITLE-PWN|\u001b\[6n-|[\u0080-\u009f]|\u202e/;

const C1_UTF8 = /\xc2[\x80-\x9f]/;
const BIDI_UTF8 = /\xd8\x9c|\xe2\x80[\x8e\x8f\xa8-\xae]|\xe2\x81[\xa6-\xa9]/;

/** what in `bytes` a terminal acts on but a line feed or a tab: C0, DEL, C1 (UTF-8 or a lone byte), bidi */
export function controlsIn(bytes: Buffer): string[] {
  const found: string[] = [];
  const latin1 = bytes.toString('latin1');
  if (/[\x00-\x08\x0b-\x1f\x7f]/.test(latin1)) found.push('C0 or DEL');
  if (C1_UTF8.test(latin1)) found.push('C1 (UTF-8)');
  if (BIDI_UTF8.test(latin1)) found.push('bidi');
  // a lone 0x80-0x9F byte (not part of a well-formed character)
  if (bytes.toString('utf8').includes('\ufffd')) found.push('a malformed byte');
  return found;
}
