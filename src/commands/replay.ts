// `flower-pty replay <transcript.jsonl>`: streams a recorded transcript through the replay's cycle
// (core/decide/replay-cycle.ts: the reader, the meter and the handoff cycle's crossing rule) and prints
// what flower-pty would have done, and where. The file's checks, its reading and the printing live here.

import { createReadStream, statSync } from 'node:fs';
import { TRANSCRIPT_ROWS } from '../claude-code/transcript-rows.js';
import type { Policy } from '../core/run/policy.js';
import { createReplayer, type ReplayEvent } from '../core/decide/replay-cycle.js';
import { EXIT, FlowerError } from '../core/errors.js';

export type { ReplayEvent };

export interface ReplayOptions {
  file: string;
  window?: number;
  headroom?: number;
  json: boolean;
  out: (line: string) => void;
}

/** how far into a file we look for one JSON line before calling it "not a transcript" */
export const SNIFF_BYTES = 64 * 1024;

// 130000 → "130.0K"; a window prints without decimals: 200000 → "200K", 1000000 → "1M".
function tokens(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(2)}M` : `${(n / 1000).toFixed(1)}K`;
}
function windowText(n: number): string {
  if (n % 1_000_000 === 0) return `${n / 1_000_000}M`;
  if (n % 1000 === 0) return `${n / 1000}K`;
  return tokens(n);
}
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

const BAR_CELLS = 20;
function bar(context: number, window: number): string {
  const filled = Math.max(0, Math.min(BAR_CELLS, Math.round((context / window) * BAR_CELLS)));
  return '█'.repeat(filled) + '░'.repeat(BAR_CELLS - filled);
}

const WINDOW_SOURCE_TEXT: Record<Policy['windowSource'], string> = {
  flag: 'from --window',
  claude: 'reported by Claude Code',
  'model-name': "from the transcript's model name; --window N to override",
  default: 'the default; --window N to override',
};

// A readable timeline: a context bar per reading, one line per decision or event.
function formatHuman(e: ReplayEvent, window: number): string {
  const gutter = (line: number): string => String(line).padStart(7);
  const pad = ' '.repeat(7);
  switch (e.event) {
    case 'policy':
      return (
        `model ${e.model ?? '(unknown)'} · window ${windowText(e.window)} (${WINDOW_SOURCE_TEXT[e.windowSource]}) · ` +
        `near at ${tokens(e.warnAt)} · handoff at ${tokens(e.at)}\n   line  context`
      );
    case 'reading':
      return `${gutter(e.line)}  ${bar(e.context, window)}  ${tokens(e.context)}/${windowText(window)}`;
    case 'near':
      return `${pad}  → near: ${tokens(e.context)} passed the warning line ${tokens(e.warnAt)}`;
    case 'handoff':
      return `${pad}  → HANDOFF here (at ${tokens(e.at)}): the document is asked for at the next tool or turn boundary`;
    case 'compaction':
      return (
        `${gutter(e.line)}  × compaction: Claude Code compacted at ${e.preTokens === null ? '?' : tokens(e.preTokens)} ` +
        `(meter ${tokens(e.meter)}); a new generation starts`
      );
    case 'overflow':
      return `${gutter(e.line)}  ! overflow: the prompt did not fit; flower-pty would hand off (degraded) here`;
    case 'session':
      return `${gutter(e.line)}  ◇ session ${e.sessionId}`;
    case 'summary':
      return (
        `\n${plural(e.lines, 'line')}, ${plural(e.readings, 'reading')}, peak ${tokens(e.peak)}/${windowText(e.window)} ` +
        `(window ${WINDOW_SOURCE_TEXT[e.windowSource]}): ${plural(e.handoffs, 'handoff')}, ` +
        `${plural(e.compactions, 'compaction')}, ${plural(e.overflows, 'overflow')}` +
        (e.dropped > 0 ? `, ${plural(e.dropped, 'over-long line')} skipped` : '') +
        (e.compactedBelow === null
          ? ''
          : `\nClaude Code compacted at ${tokens(e.compactedBelow.context)}, ` +
            `below the handoff line ${tokens(e.at)} of the ${windowText(e.window)} window assumed: ` +
            `the session's window was smaller; replay with --window ${windowText(e.compactedBelow.suggest).toLowerCase()}`)
      );
  }
}

function fail(message: string, cause?: unknown): never {
  throw new FlowerError(message, EXIT.usage, cause === undefined ? undefined : { cause });
}

function checkFile(file: string): void {
  let st;
  try {
    st = statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      fail(
        `replay: no such file ${file}: give the path of a transcript, e.g. ~/.claude/projects/<dir>/<session>.jsonl`,
      );
    fail(`replay: cannot read ${file} (${code ?? String(error)})`, error);
  }
  if (st.isDirectory()) fail(`replay: ${file} is a directory: give one transcript .jsonl file from it`);
  // a FIFO would hold the read open for ever, a device (/dev/zero) would never end
  if (!st.isFile())
    fail(`replay: ${file} is ${st.isFIFO() ? 'a FIFO' : 'not a regular file'}: give a transcript .jsonl file`);
}

// Streams the file (never read whole: transcripts reach a gigabyte) and prints the timeline.
// Returns the exit code; a person's mistake is thrown as a one-line FlowerError (exit 2).
export async function runReplay(opts: ReplayOptions): Promise<number> {
  if (opts.window !== undefined && !(Number.isFinite(opts.window) && opts.window > 0)) {
    fail(`replay: --window expects a positive token count like 200000 or 200k, got ${String(opts.window)}`);
  }
  checkFile(opts.file);
  const replayer = createReplayer(TRANSCRIPT_ROWS, { window: opts.window, headroom: opts.headroom });
  let window = opts.window ?? 0;
  const emit = (events: ReplayEvent[]): void => {
    for (const e of events) {
      if (e.event === 'policy') window = e.window;
      opts.out(opts.json ? JSON.stringify(e) : formatHuman(e, window));
    }
  };
  const notTranscript = (): never =>
    fail(
      `replay: ${opts.file} is not a Claude Code transcript: no JSON record in its first ${SNIFF_BYTES / 1024} KB (expected a .jsonl file)`,
    );
  let firstByte: number | undefined;
  try {
    for await (const chunk of createReadStream(opts.file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      firstByte ??= chunk.find((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09);
      emit(replayer.push(chunk));
      // A huge first JSON line may take more than 64 KB; anything else by then is not JSONL.
      const sniffed = replayer.splitter.bytes >= SNIFF_BYTES;
      if (sniffed && !replayer.sawRecord && (firstByte !== 0x7b || replayer.splitter.lineNo > 0)) notTranscript();
    }
  } catch (error) {
    if (error instanceof FlowerError) throw error;
    fail(`replay: reading ${opts.file} failed: ${error instanceof Error ? error.message : String(error)}`, error);
  }
  const tail = replayer.end();
  if (!replayer.sawRecord) {
    if (replayer.splitter.bytes === 0) fail(`replay: ${opts.file} is empty: nothing to replay`);
    notTranscript();
  }
  emit(tail);
  return EXIT.ok;
}
