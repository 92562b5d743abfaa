// Terminal notifications: the bell, plus the desktop-notification escapes terminals understand
// (OSC 9 in iTerm2, Windows Terminal, ConEmu; OSC 777 in urxvt, kitty, foot, VTE). A terminal that
// knows neither ignores them.

import { terminalText } from '../terminal-text.js';

// Through the one terminal boundary; a `;` would end OSC 777's field.
const clean = (text: string) => terminalText(text).replace(/;/g, ' ').slice(0, 200);

export function notificationSequence(title: string, body: string): string {
  return `\u0007\u001b]9;${clean(`${title}: ${body}`)}\u0007\u001b]777;notify;${clean(title)};${clean(body)}\u0007`;
}
