// `flower-pty eval fork SESSION [--at N ...] [-k K] [--dry-run]`: a person's own session forked at cut points
// with their own claude in print mode (`--resume ID --fork-session -p`), one document from Claude Code's
// /compact and one from flower-pty's handoff request; each scored for coverage, then given to a fresh
// session that answers probes keyed from the transcript (core/eval/probe-questions.ts), scored by rule.
// k runs; per arm the pass rates with Wilson intervals, tokens, cost and time. A cut before the end forks a
// copy of the transcript up to that line (written beside it, removed after). Bad input is one line; an
// interruption keeps and prints what finished. What 2.1.332 does here: docs/eval-fork.md.

import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { claudeConfigDir } from '../adapters/claude-config-dir.js';
import { resolveClaude } from '../adapters/claude-binary.js';
import { runPrint, type PrintCall } from '../adapters/claude-print.js';
import { factsOfTranscript } from '../adapters/transcript-coverage.js';
import { TRANSCRIPT_ROWS } from '../claude-code/transcript-rows.js';
import { createTranscriptReader } from '../core/meter/transcript-reader.js';
import { formatTokens } from '../core/meter/token-format.js';
import {
  COMPACT_COMMAND,
  canForkSession,
  compactSummaryOf,
  forkArgs,
  freshArgs,
  readPrintResult,
  successorArgs,
  type PrintResult,
} from '../claude-code/print-result.js';
import { successorSteps } from '../claude-code/successor-steps.js';
import { continuationPrompt, rediscoveryOf, type Rediscovery } from '../core/eval/rediscovery.js';
import { handoffRequest } from '../core/lineage/handoff-prompts.js';
import { namesPath, scoreDocument } from '../core/coverage/coverage-score.js';
import {
  ARMS,
  forkEstimate,
  tallyArms,
  tallyText,
  type Arm,
  type ArmRun,
  type CutPlan,
  type Spend,
} from '../core/eval/fork-eval.js';
import { probePasses, probePrompt, probesOf, splitAnswers } from '../core/eval/probe-questions.js';
import type { SuccessorFacts } from '../core/coverage/successor-facts.js';
import { EXIT, FlowerError } from '../core/errors.js';
import { oneLine } from '../core/one-line.js';

export interface EvalForkOptions {
  session: string;
  at: readonly number[];
  k: number;
  dryRun: boolean;
  claude?: string | undefined;
  cwd: string;
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
  signal?: AbortSignal;
  /** each print-mode call may take this long */
  callTimeoutMs?: number;
}

/** runs per arm at most: each is a real fork, paid for */
export const MAX_K = 20;
const USAGE = 'flower-pty eval fork SESSION [--at LINE ...] [-k K] [--dry-run]';

function fail(message: string, code: number = EXIT.usage): never {
  throw new FlowerError(`eval fork: ${oneLine(message)}`, code);
}

// The session's transcript among the person's projects (CLAUDE_CONFIG_DIR, else ~/.claude).
function findTranscript(session: string, env: NodeJS.ProcessEnv): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(session))
    fail(`"${session}" is not a session id (a UUID, as claude --resume lists them): ${USAGE}`);
  const projects = join(claudeConfigDir(env), 'projects');
  let folders: string[] = [];
  try {
    folders = readdirSync(projects);
  } catch {
    fail(`no Claude Code projects folder at ${projects}: set CLAUDE_CONFIG_DIR to your claude's config folder`);
  }
  for (const folder of folders) {
    const path = join(projects, folder, `${session}.jsonl`);
    if (existsSync(path)) return path;
  }
  fail(`no session ${session} in ${projects}: claude --resume lists the sessions there`);
}

function lineCount(path: string): number {
  const text = readFileSync(path, 'utf8');
  return text.split('\n').filter((l) => l.trim() !== '').length;
}

function firstLine(text: string): string {
  return oneLine(
    text
      .trim()
      .split('\n')
      .find((l) => l.trim() !== '') ?? '',
    300,
  );
}

const spendOf = (r: PrintResult | null): Spend => ({
  tokens: r?.tokens ?? 0,
  costUsd: r?.costUsd ?? 0,
  ms: r?.ms ?? 0,
});
const add = (a: Spend, b: Spend): Spend => ({
  tokens: a.tokens + b.tokens,
  costUsd: a.costUsd + b.costUsd,
  ms: a.ms + b.ms,
});

export async function runEvalFork(opts: EvalForkOptions): Promise<number> {
  if (!Number.isInteger(opts.k) || opts.k < 1 || opts.k > MAX_K)
    fail(`-k expects a whole number of runs from 1 to ${MAX_K}, got ${String(opts.k)}`);
  for (const n of opts.at)
    if (!Number.isInteger(n) || n < 1)
      fail(`--at expects a line number of the transcript (1 or more), got ${String(n)}`);
  const transcript = findTranscript(opts.session, opts.env);
  const lines = lineCount(transcript);
  const at = opts.at.length > 0 ? [...new Set(opts.at)].sort((a, b) => a - b) : [lines];
  const past = at.find((n) => n > lines);
  if (past !== undefined) fail(`--at ${past} is past the transcript's last line (${lines}) in ${transcript}`);
  const cwd = sessionFolder(transcript);
  const claude = resolveClaude({ ...(opts.claude ? { flag: opts.claude } : {}), env: opts.env, cwd: opts.cwd });
  const timeoutMs = opts.callTimeoutMs ?? 15 * 60_000;
  const call = (args: string[], cwd: string): Promise<PrintCall> =>
    runPrint(claude, args, { cwd, env: opts.env, timeoutMs, ...(opts.signal ? { signal: opts.signal } : {}) });

  const help = await call(['--help'], opts.cwd);
  if (!canForkSession(help.stdout + help.stderr))
    fail(
      `${claude} has no --fork-session in its --help (an older Claude Code): update it, or name another with --claude`,
      EXIT.claudeMissing,
    );

  // The facts at each cut, the context there, and what it would cost.
  const text = readFileSync(transcript, 'utf8').split('\n');
  const contexts = contextAt(text, at);
  const cuts: Array<CutPlan & { facts: SuccessorFacts }> = [];
  for (const line of at) {
    const facts = await factsOfTranscript(transcript, { lines: line });
    cuts.push({ line, context: contexts.get(line) ?? 0, probes: probesOf(facts).length, facts });
  }
  const estimate = forkEstimate(cuts, opts.k);
  opts.out(
    `eval fork ${opts.session} (${transcript}, ${lines} lines) with ${claude}, in the session's own folder ${cwd}`,
  );
  if (opts.dryRun) {
    for (const c of cuts) {
      opts.out(
        `cut at line ${c.line}${c.line === lines ? ' (the end)' : ' (a copy of the transcript up to it is forked)'}: ` +
          `${c.probes} probe(s), ${formatTokens(c.context)} tokens of context (Claude Code's last reading before it)`,
      );
      for (const arm of ARMS) {
        opts.out(
          `  ${opts.k} × ${arm}: claude ${forkArgs('<id>', arm === 'compact' ? COMPACT_COMMAND : '<the handoff request>').join(' ')}`,
        );
        opts.out(`  ${opts.k} × ${arm} seeded: claude ${freshArgs('<the document and the probes>').join(' ')}`);
        opts.out(
          `  ${opts.k} × ${arm} successor: claude -p <the document, ` +
            `go on> --output-format json --settings <a hook that stops it at its first change to a file>`,
        );
      }
    }
    opts.out(`${estimate.calls} claude calls, about ${estimate.tokens} tokens; nothing was run`);
    return EXIT.ok;
  }

  const runs: ArmRun[] = [];
  const total = cuts.length * opts.k * ARMS.length;
  const interrupted = (): boolean => opts.signal?.aborted === true;
  try {
    for (const c of cuts) {
      const { id, remove } = forkSource(transcript, opts.session, c.line, lines, text);
      try {
        const probes = probesOf(c.facts);
        for (let run = 1; run <= opts.k && !interrupted(); run++) {
          for (const arm of ARMS) {
            if (interrupted()) break;
            const got = await armDocument(arm, id, cwd, c, call, transcript);
            if (got.refused !== null) fail(`claude refused the fork of ${opts.session}: ${got.refused}`);
            let spend = got.spend;
            const result: ArmRun = {
              arm,
              cut: c.line,
              run,
              document: got.document,
              problem: got.problem,
              coverage: got.document ? scoreDocument(c.facts, got.document) : null,
              probes: [],
              rediscovery: null,
              spend,
            };
            if (got.document !== null && probes.length > 0 && !interrupted()) {
              const answered = await call(freshArgs(probePrompt(got.document, probes)), cwd);
              const reply = readPrintResult(answered.stdout);
              spend = add(spend, spendOf(reply));
              if (reply && !reply.isError && answered.ended === null) {
                const answers = splitAnswers(reply.text, probes.length);
                result.probes = probes.map((p, i) => ({ kind: p.kind, passed: probePasses(p, answers[i] ?? '') }));
              } else if (answered.ended === null) {
                result.problem = `the seeded session gave no answer: ${firstLine(answered.stderr) || 'no result'}`;
              }
            }
            if (got.document !== null && !interrupted()) {
              const s = await successor(got.document, cwd, call, transcript);
              spend = add(spend, s.spend);
              result.rediscovery = s.cost;
              if (s.problem !== null) result.problem = s.problem;
            }
            if (interrupted()) break;
            runs.push({ ...result, spend });
          }
        }
      } finally {
        remove();
      }
      if (interrupted()) break;
    }
  } finally {
    for (const line of report(runs, total, interrupted())) opts.out(line);
  }
  if (interrupted()) {
    opts.err(`eval fork: interrupted: ${runs.length} of ${total} runs finished, their figures above`);
    return EXIT.interrupted;
  }
  return EXIT.ok;
}

function report(runs: readonly ArmRun[], total: number, interrupted: boolean): string[] {
  const lines = [`${runs.length} of ${total} runs${interrupted ? ' (interrupted)' : ''}`];
  for (const r of runs) if (r.problem) lines.push(`  ${r.arm} at line ${r.cut}, run ${r.run}: ${r.problem}`);
  return [...lines, ...tallyText(tallyArms(runs))];
}

// The context at each cut (a count of the transcript's non-empty lines): the context meter's reading, the
// input and cache tokens Claude Code recorded on the last main-thread response before it (after a
// compaction, its summary's size), read in one pass.
function contextAt(text: readonly string[], cuts: readonly number[]): Map<number, number> {
  const reader = createTranscriptReader(TRANSCRIPT_ROWS);
  const out = new Map<number, number>();
  const rows = text.filter((l) => l.trim() !== '');
  let done = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    for (; done < cut && done < rows.length; done++) reader.push(`${rows[done]!}\n`);
    out.set(cut, reader.meter.context);
  }
  return out;
}

// Where the session ran, as its rows say: claude --resume finds a session by its folder, and the forks must
// run there. A session from another machine (or a folder since removed) is refused, never run here instead.
function sessionFolder(transcript: string): string {
  let named: string | null = null;
  for (const line of readFileSync(transcript, 'utf8').split('\n', 50)) {
    try {
      const cwd = (JSON.parse(line) as { cwd?: unknown }).cwd;
      if (typeof cwd !== 'string' || cwd === '') continue;
      if (existsSync(cwd) && statSync(cwd).isDirectory()) return cwd;
      named ??= cwd;
    } catch {
      // not a row
    }
  }
  if (named === null)
    fail(
      `${transcript} does not say which folder the session ran in (no cwd on its first rows): eval fork needs a session Claude Code recorded on this machine`,
    );
  fail(
    `the session ran in ${named}, which is not on this machine: run eval fork where that folder exists, ` +
      `or make it there (a clone of the same repository at that path)`,
  );
}

// The session to fork at a cut: the session itself at its end, else a copy of its rows up to the cut under
// a new id beside it (claude resumes a session by its file), removed once its forks are made.
function forkSource(
  transcript: string,
  session: string,
  line: number,
  lines: number,
  text: readonly string[],
): { id: string; remove: () => void } {
  if (line >= lines) return { id: session, remove: () => undefined };
  const id = randomUUID();
  const copy = join(dirname(transcript), `${id}.jsonl`);
  const kept = text
    .filter((l) => l.trim() !== '')
    .slice(0, line)
    .map((l) => l.split(session).join(id));
  writeFileSync(copy, `${kept.join('\n')}\n`, { flag: 'wx', mode: 0o600 });
  return { id, remove: () => unlinkSync(copy) };
}

// The successor seeded with an arm's document, going on with the work until its first change to a file (a
// hook stops it there, before the change is made); its transcript, beside the session's, says what it cost.
async function successor(
  document: string,
  cwd: string,
  call: (args: string[], cwd: string) => Promise<PrintCall>,
  transcript: string,
): Promise<{ cost: Rediscovery | null; problem: string | null; spend: Spend }> {
  const ran = await call(successorArgs(continuationPrompt(document)), cwd);
  const result = readPrintResult(ran.stdout);
  const spend = spendOf(result);
  if (ran.ended !== null) return { cost: null, problem: null, spend };
  const path = result?.sessionId ? join(dirname(transcript), `${result.sessionId}.jsonl`) : null;
  if (path === null || !existsSync(path))
    return {
      cost: null,
      problem: `the seeded successor left no transcript: ${firstLine(ran.stderr) || 'no session id'}`,
      spend,
    };
  return {
    cost: rediscoveryOf(successorSteps(readFileSync(path, 'utf8')), (p) => namesPath(document, p)),
    problem: null,
    spend,
  };
}

async function armDocument(
  arm: Arm,
  id: string,
  cwd: string,
  c: CutPlan,
  call: (args: string[], cwd: string) => Promise<PrintCall>,
  transcript: string,
): Promise<{ document: string | null; problem: string | null; refused: string | null; spend: Spend }> {
  const prompt = arm === 'compact' ? COMPACT_COMMAND : handoffRequest({ used: c.context, window: 200_000 });
  const forked = await call(forkArgs(id, prompt), cwd);
  const result = readPrintResult(forked.stdout);
  const spend = spendOf(result);
  if (forked.ended !== null)
    return {
      document: null,
      problem: forked.ended === 'timeout' ? 'the fork ran out of time' : 'interrupted',
      refused: null,
      spend,
    };
  if (result === null)
    return {
      document: null,
      problem: null,
      refused: firstLine(forked.stderr) || `exit ${String(forked.code)} and no result`,
      spend,
    };
  if (result.isError)
    return {
      document: null,
      problem: `the fork ended on an error: ${oneLine(result.text, 300)}`,
      refused: null,
      spend,
    };
  if (arm === 'handoff')
    return {
      document: result.text.trim() === '' ? null : result.text,
      problem: result.text.trim() === '' ? 'the fork wrote no document' : null,
      refused: null,
      spend,
    };
  // /compact's summary is in the fork's own transcript, beside the session's.
  const forkPath = result.sessionId ? join(dirname(transcript), `${result.sessionId}.jsonl`) : null;
  const summary = forkPath && existsSync(forkPath) ? compactSummaryOf(readFileSync(forkPath, 'utf8')) : null;
  return {
    document: summary,
    problem: summary === null ? "the fork's transcript holds no compaction summary" : null,
    refused: null,
    spend,
  };
}
