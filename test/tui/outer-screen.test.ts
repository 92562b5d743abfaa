// The split view's outer screen: blessed compiles a terminal's terminfo once per terminal name in a
// process (a run server opens a screen per split view attached), and every screen still gets its own
// working Tput: the same capabilities, bound to itself.
import t from 'tap';
import { PassThrough } from 'node:stream';
import blessed from 'blessed';
import { openOuterScreen } from '../../src/tui/outer-screen.js';

function terminal(): NodeJS.WriteStream {
  const out = new PassThrough() as unknown as NodeJS.WriteStream & PassThrough;
  Object.assign(out, { columns: 80, rows: 24, isTTY: true });
  out.on('data', () => undefined);
  return out;
}

t.test('the terminfo of a terminal is compiled once, and each screen has its own Tput with it', async (t) => {
  const proto = (blessed as unknown as { Tput: { prototype: { compile(info: unknown): unknown } } }).Tput.prototype;
  const compile = proto.compile;
  let compiled = 0;
  proto.compile = function (this: unknown, info: unknown) {
    compiled += 1;
    return compile.call(this, info);
  };
  t.teardown(() => {
    proto.compile = compile;
  });
  const a = openOuterScreen(terminal(), 'xterm-256color');
  const b = openOuterScreen(terminal(), 'xterm-256color');
  const c = openOuterScreen(terminal(), 'vt100');
  t.teardown(() => [a, b, c].forEach((s) => s.screen.destroy()));
  t.ok(
    compiled <= 2,
    `two terminal names, at most two compiles (${compiled}); none for the second xterm-256color screen`,
  );
  const tput = (s: typeof a) =>
    (s.screen as unknown as { tput: { cup(y: number, x: number): string; colors: number; terminal: string } }).tput;
  t.not(tput(a), tput(b), 'each screen its own Tput');
  t.equal(tput(b).cup(4, 9), tput(a).cup(4, 9), 'the same capability, from the kept entry');
  t.equal(tput(b).cup(4, 9), '\u001b[5;10H');
  t.equal(tput(b).colors, 256);
  t.same([tput(c).terminal, tput(c).colors === 256], ['vt100', false], 'another terminal name gets its own entry');
});

t.test('a terminfo entry blessed cannot use is looked for once per terminal name, not once per screen', async (t) => {
  // No terminfo has this name: blessed's lookup fails and it falls back to its own entries, as it does for
  // a system entry in a format it cannot parse (ncurses 6's 32-bit numbers).
  const name = 'flower-pty-no-such-terminal';
  const proto = (blessed as unknown as { Tput: { prototype: { readTerminfo(term?: string): unknown } } }).Tput
    .prototype;
  const read = proto.readTerminfo;
  const looked: Array<string | undefined> = [];
  proto.readTerminfo = function (this: unknown, term?: string) {
    looked.push(term);
    return read.call(this, term);
  };
  t.teardown(() => {
    proto.readTerminfo = read;
  });
  const a = openOuterScreen(terminal(), name);
  const first = looked.length;
  const b = openOuterScreen(terminal(), name);
  t.teardown(() => [a, b].forEach((s) => s.screen.destroy()));
  t.ok(first > 0, 'the first screen looked');
  t.equal(looked.length, first, 'the second screen read no terminfo file');
  const tput = (s: typeof a) => (s.screen as unknown as { tput: { cup(y: number, x: number): string } }).tput;
  t.equal(tput(b).cup(4, 9), tput(a).cup(4, 9), 'and got the same fallback entry');
});
