// The split view's prefix key (tmux-style, "C-]" unless set): read once from the option or
// $FLOWER_PTY_PREFIX, with a one-line error for a bad one, and keys named the way the help names them.

import { FlowerError } from '../../core/errors.js';
import { DEFAULT_PREFIX, parsePrefix, prefixName } from '../../core/screen/keymap.js';

export function prefixKey(
  option: string | undefined,
  env: Record<string, string | undefined>,
): { byte: string; label: string } {
  const parsed = parsePrefix(option ?? env.FLOWER_PTY_PREFIX ?? DEFAULT_PREFIX);
  if ('problem' in parsed) throw new FlowerError(`${option ? 'prefix' : 'FLOWER_PTY_PREFIX'}: ${parsed.problem}`);
  return { byte: parsed.byte, label: prefixName(parsed.byte) };
}

/** a key as the status bar shows it: control characters by name */
export function printable(key: string): string {
  return [...key].map((c) => (c.charCodeAt(0) < 0x20 ? prefixName(c) : c === '\u007f' ? 'DEL' : c)).join('');
}
