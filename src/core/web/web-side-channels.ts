// What a run page does with what claude tells a terminal besides the screen: an OSC 8 link is opened
// (in a new tab, without the opener, after the person saw its target) only for http, https and file
// targets; claude's clipboard write (OSC 52, from `/copy`) is decoded to the text it carries (a read,
// `?`, is nothing: a page never hands its clipboard to claude); a notification (OSC 9, OSC 777
// `notify;title;body`, OSC 99) becomes a title and a body for the page's "notify me". Pure and
// browser-safe, with no imports: the page imports the compiled file (served from dist/core).

const OPENABLE = /^(https?|file):/i;

/** the target to open, or null when it is not an http, https or file link */
export function openableLink(uri: string): string | null {
  const trimmed = uri.trim();
  // eslint-disable-next-line no-control-regex
  return OPENABLE.test(trimmed) && !/[\u0000-\u001f\u007f]/.test(trimmed) ? trimmed : null;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64Bytes(text: string): Uint8Array | null {
  const clean = text.replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(clean) || clean.length % 4 === 1) return null;
  const bytes = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let at = 0;
  for (const ch of clean) {
    value = (value << 6) | BASE64.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (value >> bits) & 0xff;
    }
  }
  return bytes;
}

/** the text of OSC 52's `data` (`c;base64`), or null for a read or anything that is not a write */
export function clipboardText(data: string): string | null {
  const semi = data.indexOf(';');
  if (semi < 0) return null;
  const payload = data.slice(semi + 1);
  if (payload === '?' || payload === '') return null;
  const bytes = base64Bytes(payload);
  return bytes ? new TextDecoder('utf-8', { fatal: false }).decode(bytes) : null;
}

/** a notification's title and body from OSC `ident`'s data, or null when it says nothing */
export function notificationOf(ident: number, data: string): { title: string; body: string } | null {
  if (ident === 9) return data && !/^\d+;/.test(data) ? { title: 'claude', body: data } : null; // OSC 9;4;… is a progress bar
  if (ident === 777) {
    const [kind, title, ...body] = data.split(';');
    return kind === 'notify' ? { title: title || 'claude', body: body.join(';') } : null;
  }
  if (ident === 99) {
    const semi = data.indexOf(';');
    const body = semi < 0 ? '' : data.slice(semi + 1);
    return body ? { title: 'claude', body } : null;
  }
  return null;
}
