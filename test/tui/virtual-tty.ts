// An outer terminal for face tests: what the face writes to "stdout" lands in an @xterm/headless
// screen we can read back as text and cells; "stdin" is a stream the test types into.
import { PassThrough, Writable } from 'node:stream';
import xtermHeadless from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';

const { Terminal } = xtermHeadless;

export interface VirtualTty {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  term: InstanceType<typeof Terminal>;
  /** every byte the face wrote */
  written(): string;
  lines(): Promise<string[]>;
  waitFor(match: (screen: string) => boolean, what: string, ms?: number): Promise<string>;
  resize(cols: number, rows: number): void;
}

export function createVirtualTty(cols: number, rows: number): VirtualTty {
  const term = new Terminal({ cols, rows, allowProposedApi: true });
  term.loadAddon(new unicode11.Unicode11Addon());
  term.unicode.activeVersion = '11';
  let all = '';
  const stdout = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      const text = chunk.toString();
      all += text;
      term.write(text, () => cb());
    },
  }) as unknown as NodeJS.WriteStream & { columns: number; rows: number; isTTY: boolean };
  stdout.isTTY = true;
  stdout.columns = cols;
  stdout.rows = rows;
  const stderr = new PassThrough() as unknown as NodeJS.WriteStream;
  const stdin = new PassThrough() as unknown as NodeJS.ReadStream;

  async function lines(): Promise<string[]> {
    await new Promise<void>((resolve) => term.write('', resolve));
    const buffer = term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < term.rows; y++) out.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    return out;
  }

  return {
    stdin,
    stdout,
    stderr,
    term,
    written: () => all,
    lines,
    async waitFor(match, what, ms = 5_000) {
      const deadline = performance.now() + ms;
      for (;;) {
        const screen = (await lines()).join('\n');
        if (match(screen)) return screen;
        if (performance.now() > deadline) throw new Error(`the screen never showed ${what}; it shows:\n${screen}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    resize(c, r) {
      stdout.columns = c;
      stdout.rows = r;
      term.resize(c, r);
      stdout.emit('resize');
    },
  };
}
