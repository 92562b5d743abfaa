// Drives a command in a private tmux server (its own -L socket, killed at teardown) and reads the
// screen back as a person would see it. NCURSES_NO_UTF8_ACS=1 makes blessed draw Unicode boxes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Tmux {
  capture(): string;
  send(...keys: string[]): void;
  /** literal text, no key names */
  type(text: string): void;
  resize(cols: number, rows: number): void;
  display(format: string): string;
  /** any other tmux command against this server */
  run(...args: string[]): string;
  waitFor(match: (screen: string) => boolean, what: string, ms?: number): Promise<string>;
}

let counter = 0;

export function startTmux(
  t: { teardown(fn: () => void): void },
  opts: { cols: number; rows: number; command: string },
): Tmux {
  const socket = `flower-test-${process.pid}-${++counter}`;
  const tmux = (...args: string[]) =>
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  // The command goes through a script file, not tmux's argument: tmux refuses a command longer than
  // one of its messages ("command too long"), and a test that hands claude the whole environment
  // grows with tap's own variables (CI: the coverage exclude list of every test file, over 16 KiB).
  const scriptDir = mkdtempSync(join(tmpdir(), 'flower-tmux-'));
  const script = join(scriptDir, 'command.sh');
  writeFileSync(script, `${opts.command}\n`, { mode: 0o700 });
  tmux('new-session', '-d', '-s', 'main', '-x', String(opts.cols), '-y', String(opts.rows), `sh ${script}`);
  t.teardown(() => {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    rmSync(scriptDir, { recursive: true, force: true });
  });
  const capture = () => tmux('capture-pane', '-p', '-t', 'main');
  return {
    capture,
    send: (...keys) => void tmux('send-keys', '-t', 'main', ...keys),
    type: (text) => void tmux('send-keys', '-t', 'main', '-l', text),
    resize: (cols, rows) => void tmux('resize-window', '-t', 'main', '-x', String(cols), '-y', String(rows)),
    display: (format) => tmux('display-message', '-p', '-t', 'main', format).trim(),
    run: (...args) => tmux(...args),
    async waitFor(match, what, ms = 10_000) {
      // On the monotonic clock: this machine's wall clock once stepped 30 s ahead in the middle of a wait
      // (CI: the wait gave up after 1.3 s of its 30).
      const deadline = performance.now() + ms;
      for (;;) {
        const screen = capture();
        if (match(screen)) return screen;
        if (performance.now() > deadline) throw new Error(`tmux never showed ${what}; the screen:\n${screen}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}
