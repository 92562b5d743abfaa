// `eval fork` as values: the plan (each cut, each run, each arm: the fork that writes a document, the fresh
// session seeded with it that answers the probes), the token estimate `--dry-run` prints before anything is
// spent, and the tally of what came back: per arm the probes' pass rates with Wilson 95 % intervals, its
// documents' coverage, and its tokens, cost and time. Pure.

import { CATEGORIES, type Category } from '../coverage/successor-facts.js';
import type { CoverageScore } from '../coverage/coverage-score.js';
import { PROBE_KINDS, type ProbeKind } from './probe-questions.js';
import { rateText, wilson95, type Rate } from './wilson.js';
import { rediscoveryTotals, type Rediscovery } from './rediscovery.js';
import { formatTokens } from '../meter/token-format.js';

export const ARMS = ['compact', 'handoff'] as const;
export type Arm = (typeof ARMS)[number];

export const ARM_WORDS: Readonly<Record<Arm, string>> = {
  compact: "Claude Code's /compact",
  handoff: "flower-pty's handoff request",
};

/** what one arm's call cost */
export interface Spend {
  tokens: number;
  costUsd: number;
  ms: number;
}

/** one run of one arm at one cut */
export interface ArmRun {
  arm: Arm;
  cut: number;
  run: number;
  /** the document it got (null: none came; `problem` says why) */
  document: string | null;
  problem: string | null;
  coverage: CoverageScore | null;
  /** each probe asked and whether its answer passed */
  probes: Array<{ kind: ProbeKind; passed: boolean }>;
  /** the seeded successor's rediscovery cost (null: it did not run, or left no transcript) */
  rediscovery: Rediscovery | null;
  spend: Spend;
}

export interface CutPlan {
  /** the transcript's line the fork is cut at */
  line: number;
  /** the context a fork carries there: the usage Claude Code recorded on the last main-thread response
   *  before it (input and cache tokens, the context meter's reading), not the transcript's bytes (after a
   *  compaction most of them are no longer in the context) */
  context: number;
  /** the probes the facts there support */
  probes: number;
}

/** what a document and a probe reply are taken to cost in output, and a seeded session's fixed prompt */
export const DOCUMENT_TOKENS = 3_000;
export const SEEDED_TOKENS = 20_000;
/** what a seeded successor is taken to read before its first change (a dozen requests of a growing context) */
export const SUCCESSOR_TOKENS = 150_000;

/** the calls and the tokens an eval would take, before anything is spent */
export function forkEstimate(cuts: readonly CutPlan[], k: number): { calls: number; tokens: number } {
  let tokens = 0;
  for (const c of cuts) {
    // per arm: the fork reads the context and writes a document; the seeded session reads it and answers
    // and the successor seeded with it goes on with the work until its first change
    tokens += ARMS.length * k * (c.context + DOCUMENT_TOKENS + SEEDED_TOKENS + DOCUMENT_TOKENS + SUCCESSOR_TOKENS);
  }
  return { calls: cuts.length * k * ARMS.length * 3, tokens };
}

export interface ArmTally {
  arm: Arm;
  runs: number;
  /** runs that gave no document */
  failed: number;
  overall: Rate;
  byKind: Record<ProbeKind, Rate>;
  coverage: Record<Category, { found: number; total: number }>;
  rediscovery: ReturnType<typeof rediscoveryTotals>;
  spend: Spend;
}

export function tallyArms(runs: readonly ArmRun[]): ArmTally[] {
  return ARMS.map((arm) => {
    const mine = runs.filter((r) => r.arm === arm);
    const probes = mine.flatMap((r) => r.probes);
    const byKind = Object.fromEntries(
      PROBE_KINDS.map((k) => {
        const of = probes.filter((p) => p.kind === k);
        return [k, wilson95(of.filter((p) => p.passed).length, of.length)];
      }),
    ) as Record<ProbeKind, Rate>;
    const coverage = Object.fromEntries(CATEGORIES.map((c) => [c, { found: 0, total: 0 }])) as Record<
      Category,
      { found: number; total: number }
    >;
    for (const r of mine)
      for (const c of CATEGORIES)
        if (r.coverage) {
          coverage[c].found += r.coverage[c].found;
          coverage[c].total += r.coverage[c].total;
        }
    const spend = mine.reduce(
      (s, r) => ({ tokens: s.tokens + r.spend.tokens, costUsd: s.costUsd + r.spend.costUsd, ms: s.ms + r.spend.ms }),
      { tokens: 0, costUsd: 0, ms: 0 },
    );
    const rediscovery = rediscoveryTotals(mine.flatMap((r) => (r.rediscovery ? [r.rediscovery] : [])));
    return {
      arm,
      runs: mine.length,
      failed: mine.filter((r) => r.document === null).length,
      overall: wilson95(probes.filter((p) => p.passed).length, probes.length),
      byKind,
      coverage,
      rediscovery,
      spend,
    };
  });
}

/** the tally as the terminal shows it, one block per arm */
export function tallyText(tallies: readonly ArmTally[]): string[] {
  const lines: string[] = [];
  for (const t of tallies) {
    lines.push(`${ARM_WORDS[t.arm]}: ${t.runs} run(s)${t.failed > 0 ? `, ${t.failed} with no document` : ''}`);
    lines.push(`  probes passed   ${rateText(t.overall)}`);
    for (const k of PROBE_KINDS)
      if (t.byKind[k].n > 0)
        lines.push(`    ${k.padEnd(13)} ${t.byKind[k].passes}/${t.byKind[k].n}  ${rateText(t.byKind[k])}`);
    const cov = CATEGORIES.filter((c) => t.coverage[c].total > 0).map(
      (c) => `${c} ${t.coverage[c].found}/${t.coverage[c].total}`,
    );
    lines.push(`  coverage        ${cov.length > 0 ? cov.join(' · ') : '—'}`);
    const r = t.rediscovery;
    const mean = (n: number): string => (r.runs === 0 ? '—' : (n / r.runs).toFixed(1).replace(/\.0$/, ''));
    lines.push(
      r.runs === 0
        ? '  rediscovery     — (no seeded successor ran)'
        : `  rediscovery     ${mean(r.calls)} tool calls · ${formatTokens(Math.round(r.tokens / r.runs))} input tokens before its first change · ${mean(r.reread)} file(s) the document named read again (mean of ${r.runs}; ${r.changed} reached a change)`,
    );
    lines.push(
      `  spent           ${t.spend.tokens} tokens · $${t.spend.costUsd.toFixed(4)} · ${(t.spend.ms / 1000).toFixed(1)} s`,
    );
  }
  return lines;
}
