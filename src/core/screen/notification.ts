// Terminal notifications: the bell, plus the desktop-notification escapes terminals understand
// (OSC 9 in iTerm2, Windows Terminal, ConEmu; OSC 777 in urxvt, kitty, foot, VTE). A terminal that
// knows neither ignores them.

const clean = (text: string) => text.replace(/[\u0000-\u001f\u007f;]/g, ' ').slice(0, 200);

export function notificationSequence(title: string, body: string): string {
  return `\u0007\u001b]9;${clean(`${title}: ${body}`)}\u0007\u001b]777;notify;${clean(title)};${clean(body)}\u0007`;
}
