// The report's chart: the context of every generation over wall-clock time, as one inline SVG.
// Pure. Each polyline point is a transcript reading (x: its timestamp, y: its tokens) through the
// linear scale below, so a test can map the coordinates back to the readings.

import type { ReportModel } from './report-model.js';
import { escapeHtml } from '../html-escape.js';
import { formatTokens } from '../meter/token-format.js';

/** any value of the model as page text, escaped: a number the model's checks let through is still drawn
 * as text through the one escape (a model from another machine is never trusted to be what its type says) */
export function drawn(value: string | number | boolean | null | undefined): string {
  return escapeHtml(String(value));
}

export const CHART = { width: 960, height: 340, left: 64, right: 20, top: 20, bottom: 44 } as const;

export const GENERATION_COLOURS = [
  '#2563eb',
  '#16a34a',
  '#9333ea',
  '#ea580c',
  '#0891b2',
  '#be123c',
  '#4d7c0f',
  '#a16207',
] as const;

export interface ChartScale {
  t0: number;
  t1: number;
  yMax: number;
}

// The domain: from the first generation's start to the last one's end; 0 to the window (or the peak).
export function chartScale(model: ReportModel): ChartScale {
  const ts: number[] = [];
  let peak = 0;
  for (const g of model.generations) {
    for (const iso of [g.startedAt, g.endedAt]) if (iso) ts.push(Date.parse(iso));
    for (const p of g.curve) {
      ts.push(p.t);
      if (p.v > peak) peak = p.v;
    }
  }
  // a loop, not Math.min(...ts): a spread of a long lineage's times overflows the stack
  let t0 = ts.length > 0 ? Infinity : 0;
  let t1 = ts.length > 0 ? -Infinity : 1;
  for (const t of ts) {
    if (t < t0) t0 = t;
    if (t > t1) t1 = t;
  }
  if (t1 <= t0) t1 = t0 + 1;
  const yMax = Math.max(model.thresholds?.window ?? 0, peak * 1.1, 1000);
  return { t0, t1, yMax };
}

export function xOf(scale: ChartScale, t: number): number {
  const plot = CHART.width - CHART.left - CHART.right;
  return CHART.left + ((t - scale.t0) / (scale.t1 - scale.t0)) * plot;
}

export function yOf(scale: ChartScale, v: number): number {
  const plot = CHART.height - CHART.top - CHART.bottom;
  return CHART.top + plot * (1 - Math.min(v, scale.yMax) / scale.yMax);
}

const r2 = (n: number): string => (Math.round(n * 100) / 100).toString();

function clock(t: number): string {
  return new Date(t).toISOString().slice(11, 19);
}

function hline(scale: ChartScale, v: number, cls: string, label: string): string {
  const y = r2(yOf(scale, v));
  return (
    `<line class="${cls}" x1="${CHART.left}" x2="${CHART.width - CHART.right}" y1="${y}" y2="${y}"/>` +
    `<text class="${cls}-label" x="${CHART.width - CHART.right - 4}" y="${r2(yOf(scale, v) - 4)}" text-anchor="end">${escapeHtml(label)}</text>`
  );
}

export function renderChart(model: ReportModel): string {
  const scale = chartScale(model);
  const parts: string[] = [];
  const bottom = CHART.height - CHART.bottom;
  parts.push(
    `<rect class="plot" x="${CHART.left}" y="${CHART.top}" width="${CHART.width - CHART.left - CHART.right}" height="${bottom - CHART.top}"/>`,
  );
  for (let k = 0; k <= 4; k++) {
    const v = (scale.yMax * k) / 4;
    const y = r2(yOf(scale, v));
    parts.push(`<line class="grid" x1="${CHART.left}" x2="${CHART.width - CHART.right}" y1="${y}" y2="${y}"/>`);
    parts.push(
      `<text class="axis" x="${CHART.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${formatTokens(v)}</text>`,
    );
  }
  for (let k = 0; k <= 4; k++) {
    const t = scale.t0 + ((scale.t1 - scale.t0) * k) / 4;
    parts.push(
      `<text class="axis" x="${r2(xOf(scale, t))}" y="${bottom + 16}" text-anchor="${k === 0 ? 'start' : k === 4 ? 'end' : 'middle'}">${clock(t)}</text>`,
    );
  }
  parts.push(
    `<text class="axis" x="${CHART.left}" y="${CHART.height - 6}">time (UTC) · context tokens per reading</text>`,
  );
  const th = model.thresholds;
  if (th) {
    parts.push(hline(scale, th.warnAt, 'near', `near ${formatTokens(th.warnAt)}`));
    parts.push(hline(scale, th.at, 'handoff', `handoff line ${formatTokens(th.at)}`));
  }
  model.generations.forEach((g, i) => {
    const colour = GENERATION_COLOURS[i % GENERATION_COLOURS.length] as string;
    if (g.startedAt) {
      const x = r2(xOf(scale, Date.parse(g.startedAt)));
      parts.push(`<line class="gen-start" x1="${x}" x2="${x}" y1="${CHART.top}" y2="${bottom}" stroke="${colour}"/>`);
      parts.push(
        `<text class="gen-label" x="${r2(xOf(scale, Date.parse(g.startedAt)) + 3)}" y="${CHART.top + 12}" fill="${colour}">#${drawn(g.n)}</text>`,
      );
    }
    if (g.curve.length > 0) {
      const pts = g.curve.map((p) => `${r2(xOf(scale, p.t))},${r2(yOf(scale, p.v))}`).join(' ');
      parts.push(
        `<polyline class="curve" data-generation="${drawn(g.n)}" stroke="${colour}" points="${pts}"><title>generation ${drawn(g.n)}: ` +
          `${g.curve.length} reading(s) shown, peak ${drawn(formatTokens(g.peak))}</title></polyline>`,
      );
    }
    const h = g.handoffAsked;
    if (h) {
      const x = r2(xOf(scale, h.t));
      parts.push(
        `<g class="asked" data-generation="${drawn(g.n)}"><line x1="${x}" x2="${x}" y1="${CHART.top}" y2="${bottom}"/>` +
          `<circle cx="${x}" cy="${r2(yOf(scale, h.v))}" r="5" fill="${colour}"/>` +
          `<title>generation ${drawn(g.n)}: handoff asked for at ${drawn(formatTokens(h.v))} ` +
          `(${h.source === 'events' ? 'the events file' : 'the first reading past the line'})</title></g>`,
      );
    }
    for (const c of g.compactions) {
      const x = xOf(scale, c.t);
      const y = yOf(scale, c.v);
      parts.push(
        `<g class="compaction" data-generation="${drawn(g.n)}"><path d="M${r2(x - 5)},${r2(y - 5)}L${r2(x + 5)},${r2(y + 5)}M${r2(x - 5)},${r2(y + 5)}L${r2(x + 5)},${r2(y - 5)}"/>` +
          `<title>compaction at line ${drawn(c.line)}: Claude Code compacted at ${c.preTokens === null ? '?' : drawn(formatTokens(c.preTokens))}</title></g>`,
      );
    }
    for (const o of g.overflows) {
      const x = xOf(scale, o.t);
      parts.push(
        `<g class="overflow" data-generation="${drawn(g.n)}"><path d="M${r2(x)},${r2(CHART.top + 2)}L${r2(x - 6)},${r2(CHART.top + 12)}L${r2(x + 6)},${r2(CHART.top + 12)}Z"/>` +
          `<title>overflow at line ${drawn(o.line)}: ${escapeHtml(o.text)}</title></g>`,
      );
    }
  });
  if (model.generations.every((g) => g.curve.length === 0)) {
    parts.push(
      `<text class="empty" x="${CHART.width / 2}" y="${CHART.height / 2}" text-anchor="middle">no transcript readings to draw</text>`,
    );
  }
  return (
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${CHART.width} ${CHART.height}" role="img" ` +
    `aria-label="context over time for every generation">${parts.join('')}</svg>`
  );
}
