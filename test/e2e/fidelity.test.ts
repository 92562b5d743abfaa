// The REAL claude, against the mock API, on a terminal that plays a modern one (it answers DA1, DSR and
// DECRQM 2026 as xterm does, and the kitty keyboard query), run directly and through flower-pty's split
// view: a markdown reply with italic, strikethrough, a link and a task list, shift+enter mid-prompt (sent
// as CSI 13;2u only once the terminal was asked for the kitty protocol, as a terminal does, else as CR),
// `/copy`. Whatever claude sends the terminal directly arrives through the split view too: the cells'
// italic, strikethrough and 24-bit colour, the link's target, synchronized output, the kitty keyboard push
// (so shift+enter adds a newline), the clipboard write. And the terminal is given back as it was.
import t from 'tap';
import type { Test } from 'tap';
import xtermHeadless from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';
import type { Terminal as XTerminal } from '@xterm/headless';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockApi, text, usageFor, type MockRequest } from '../../src/mock/messages-api.js';
import { createClaudeSandbox } from '../../src/mock/claude-sandbox.js';
import { runClaude, testClaude, type RunningClaude } from '../helpers/real-claude.js';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { runtimeDir, endServersAtTeardown } from '../helpers/run-servers.js';
import { sleep } from '../helpers/poll.js';

const { Terminal } = xtermHeadless;

const REPLY = [
  'Here is *the emphasis* and ~~struck words~~ for you.',
  '',
  'See [the docs](https://example.com/docs/page) for more.',
  '',
  '- [x] finished item',
  '- [ ] open item',
].join('\n');

// The same environment both ways: a person's terminal that says it shows 24-bit colour and is WezTerm.
const TERMINAL_ENV = { COLORTERM: 'truecolor', TERM_PROGRAM: 'WezTerm', FORCE_HYPERLINK: '1', LANG: 'C.UTF-8' };

interface Seen {
  italic: boolean;
  strikethrough: boolean;
  truecolor: boolean;
  link: boolean;
  sync: boolean;
  kittyPush: boolean;
  clipboard: boolean;
  newline: boolean;
}

// Every cell the terminal ever showed (the bytes replayed with a long scrollback), for what they carry.
function cellsSeen(
  raw: string,
  cols: number,
  rows: number,
): Promise<Pick<Seen, 'italic' | 'strikethrough' | 'truecolor' | 'link'>> {
  const term: XTerminal = new Terminal({ cols, rows, scrollback: 10_000, allowProposedApi: true });
  term.loadAddon(new unicode11.Unicode11Addon());
  term.unicode.activeVersion = '11';
  const links = (
    term as unknown as { _core: { _oscLinkService: { getLinkData(id: number): { uri: string } | undefined } } }
  )._core._oscLinkService;
  const seen = { italic: false, strikethrough: false, truecolor: false, link: false };
  return new Promise((resolve) => {
    // the screen is scanned before each clear, so what a later frame erased counts too
    const scan = () => {
      const buffer = term.buffer.active;
      for (let y = 0; y < buffer.length; y++) {
        const line = buffer.getLine(y);
        if (!line) continue;
        for (let x = 0; x < cols; x++) {
          const cell = line.getCell(x);
          if (!cell?.getChars().trim()) continue;
          if (cell.isItalic()) seen.italic = true;
          if (cell.isStrikethrough()) seen.strikethrough = true;
          if (cell.isFgRGB()) seen.truecolor = true;
          const id = (cell as unknown as { extended?: { _urlId?: number } }).extended?._urlId ?? 0;
          if (id && links.getLinkData(id)?.uri === 'https://example.com/docs/page') seen.link = true;
        }
      }
    };
    const chunks = raw.split(/(?=\u001b\[2J|\u001b\[\?1049[hl])/);
    let i = 0;
    const next = () => {
      scan();
      if (i >= chunks.length) {
        term.dispose();
        return resolve(seen);
      }
      term.write(chunks[i++]!, next);
    };
    next();
  });
}

// The variables that say "a test runner" or "a CI machine" to claude's colour detection.
const NOT_A_PERSONS_TERMINAL =
  /^(NO_COLOR|FORCE_COLOR|COLOR|CI|CONTINUOUS_INTEGRATION|BUILD_NUMBER|RUN_ID|CI_NAME|GITHUB_ACTIONS|GITEA_ACTIONS|GITLAB_CI|TRAVIS|CIRCLECI|APPVEYOR|BUILDKITE|DRONE|TEAMCITY_VERSION|TF_BUILD|AGENT_NAME)$/;

interface OldTerminal {
  raw: string;
  italic: boolean;
  detached: string;
}

async function oneWay(
  t: Test,
  how: 'direct' | 'split',
): Promise<{ seen: Seen; raw: string; detached: string; flags: number[]; old: OldTerminal | null }> {
  const requests: MockRequest[] = [];
  const api = await startMockApi({
    respond: (req) => {
      if (!req.isMain) return text('side');
      requests.push(req);
      return text(REPLY, usageFor(20_000));
    },
  });
  t.teardown(() => api.close());
  const root = mkdtempSync(join(tmpdir(), `flower-fidelity-${how}-`));
  // registered first: tap ends the run servers below before it removes their folder
  t.teardown(() => rmSync(root, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 }));
  const runtime = runtimeDir(root);
  endServersAtTeardown(t, runtime);
  // A person's terminal, not the test runner's: tap's own NO_COLOR and FORCE_COLOR=0 would have claude draw
  // no colour at all, and a CI machine's `CI` (or a CI vendor's variable) has claude's colour detection
  // (supports-color) settle on 16 colours with no italic or strikethrough, whatever COLORTERM says.
  const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !NOT_A_PERSONS_TERMINAL.test(k)));
  const sandbox = await createClaudeSandbox({
    root,
    baseUrl: api.url,
    baseEnv,
    env: { XDG_RUNTIME_DIR: runtime, ...TERMINAL_ENV },
  });
  const cols = 120;
  const rows = 40;
  // The kitty keyboard protocol as a terminal keeps it: the flags pushed, answered when asked.
  let flags: number[] = [];
  let run: RunningClaude | null = null;
  const onData = (data: string) => {
    for (const m of data.matchAll(/\u001b\[([<>?])(\d*)u/g)) {
      if (m[1] === '>') flags.push(Number(m[2] || 0));
      else if (m[1] === '<') flags = flags.slice(0, Math.max(0, flags.length - Number(m[2] || 1)));
      else run?.pty.write(`\u001b[?${flags[flags.length - 1] ?? 0}u`);
    }
  };
  const args =
    how === 'direct'
      ? sandbox.claudeArgs
      : [FLOWER_BIN, '--claude', testClaude(), '--workbench', join(root, 'wb'), '--', ...sandbox.claudeArgs];
  run = runClaude({
    t,
    sandbox: { ...sandbox, claudeArgs: [] },
    args,
    ...(how === 'split' ? { bin: process.execPath } : {}),
    cols,
    rows,
    onData,
  });
  const claude = run;
  const idle = async () => {
    const screen = await claude.screenText();
    return screen.includes('❯') && !screen.includes('esc to interrupt');
  };
  await claude.waitFor(idle, 60_000, `claude's prompt (${how})`);
  await sleep(500);
  claude.pty.write('first line');
  await sleep(300);
  // shift+enter as the terminal sends it: CSI 13;2u once asked for the kitty protocol, else CR
  claude.pty.write(flags.length && flags[flags.length - 1]! > 0 ? '\u001b[13;2u' : '\r');
  await sleep(300);
  claude.pty.write('second line');
  await sleep(300);
  claude.pty.write('\r');
  await claude.waitForScreen(/finished item/, 60_000);
  await claude.waitFor(idle, 30_000, `claude idle after the reply (${how})`);
  await sleep(500);
  claude.pty.write('/copy');
  await sleep(500);
  claude.pty.write('\r');
  await claude
    .waitFor(() => claude.output().includes('\u001b]52;'), 15_000, `the clipboard write (${how})`)
    .catch(() => undefined);
  await sleep(500);
  let detached = '';
  let old: OldTerminal | null = null;
  if (how === 'split') {
    // A second person's terminal attaches meanwhile: an old xterm that says nothing of 24-bit colour, the
    // kitty protocol or synchronized output. It gets what it can show, the first keeps what it can.
    const oldEnv = { ...sandbox.env, COLORTERM: '', TERM_PROGRAM: '', FORCE_HYPERLINK: '' };
    const second = runClaude({
      t,
      sandbox: { ...sandbox, env: oldEnv, claudeArgs: [] },
      args: [FLOWER_BIN, 'attach'],
      bin: process.execPath,
      cols,
      rows,
    });
    await second.waitForScreen(/finished item/, 30_000);
    await sleep(500);
    const oldRaw = second.output();
    const oldCells = await cellsSeen(oldRaw, cols, rows);
    second.pty.write('\u001d');
    await sleep(200);
    second.pty.write('d');
    await second.waitFor(
      () => /detached/i.test(second.output().slice(oldRaw.length)),
      15_000,
      'the old terminal detached',
    );
    old = { raw: oldRaw, italic: oldCells.italic, detached: second.output().slice(oldRaw.length) };
    // the prefix as the terminal now sends it (CSI u), then d: detached, the terminal given back
    const before = claude.output().length;
    claude.pty.write(flags.length && flags[flags.length - 1]! > 0 ? '\u001b[93;5u' : '\u001d');
    await sleep(200);
    claude.pty.write('d');
    await claude
      .waitFor(
        () => (!claude.isExited() ? /detached/i.test(claude.output().slice(before)) : true),
        15_000,
        'the detach',
      )
      .catch(() => undefined);
    await sleep(500);
    detached = claude.output().slice(before);
  }
  const raw = claude.output();
  const cells = await cellsSeen(raw, cols, rows);
  return {
    raw,
    detached,
    flags,
    old,
    seen: {
      ...cells,
      sync: raw.includes('\u001b[?2026h'),
      kittyPush: /\u001b\[>\d+u/.test(raw),
      clipboard: /\u001b\]52;c;[A-Za-z0-9+/=]+(\u0007|\u001b\\)/.test(raw),
      newline: requests.some((r) => /first line\r?\nsecond line/.test(r.lastUserText)),
    },
  };
}

t.test('what claude sends a modern terminal arrives through the split view as it arrives directly', async (t) => {
  const direct = await oneWay(t, 'direct');
  t.comment(`directly: ${JSON.stringify(direct.seen)}`);
  for (const feature of Object.keys(direct.seen) as Array<keyof Seen>)
    t.ok(direct.seen[feature], `directly, claude sends ${feature}`);
  const split = await oneWay(t, 'split');
  t.comment(`through the split view: ${JSON.stringify(split.seen)}`);
  for (const feature of Object.keys(direct.seen) as Array<keyof Seen>) {
    if (direct.seen[feature]) t.ok(split.seen[feature], `${feature} arrives through the split view too`);
  }
  t.notMatch(split.raw, /\u001b\]52;c;\?/, 'no clipboard read passed');
  // detached with the prefix typed as CSI u: the terminal given back as it was
  t.match(split.detached, /detached/i, 'the prefix in CSI u, then d: detached');
  t.match(split.detached, '\u001b[<u', 'the kitty push popped');
  t.match(split.detached, '\u001b[>4m', 'modifyOtherKeys reset');
  t.same(split.flags, [], "nothing left on the terminal's keyboard stack");

  const old = split.old!;
  t.ok(old.italic, 'the old terminal attached second gets the italic too');
  t.notMatch(old.raw, /\u001b\[[0-9;]*38;2;/, 'and no 24-bit colour (the nearest of 256 instead)');
  t.match(old.raw, /\u001b\[[0-9;]*38;5;/, '256-colour SGR');
  t.notMatch(old.raw, /\u001b\[>\d+u/, 'nor the kitty protocol, which it never said it takes');
  t.match(old.detached, /detached/i, 'it detaches with the legacy prefix');
  t.match(split.raw, /\u001b\[[0-9;]*38;2;/, 'while the modern terminal kept its 24-bit colour');
});
