// The report as one self-contained HTML page: inline CSS and an inline SVG, no script, no font, no
// link to anywhere, so it opens from disk on a machine with no network. Pure. Every text that
// comes from a document, a prompt, a transcript or a path is escaped.

import type { DocumentReport, GenerationReport, ReportModel } from './report-model.js';
import type { DiffLine } from '../document/line-diff.js';
import { renderChart, drawn, GENERATION_COLOURS } from './report-chart.js';
import { escapeHtml } from '../html-escape.js';
import { formatTokens } from '../meter/token-format.js';
import { deadEndsWords, type GenerationDeadEnds } from './report-dead-ends.js';
import { coverageWords, type GenerationCoverage } from './report-coverage.js';

/** the report page's look, shared by every page flower-pty writes in its style */
export const REPORT_STYLE = `
:root{color-scheme:light;--ink:#1f2937;--mute:#6b7280;--line:#e5e7eb;--bg:#fafaf9}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1040px;padding:24px;font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);background:var(--bg)}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:15px;margin:18px 0 6px}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:12px 0}
.facts dt{color:var(--mute)}.facts dd{margin:0}
.notes{background:#fef3c7;border:1px solid #f59e0b;padding:8px 12px;border-radius:6px}
.notes li{margin:2px 0}
.chart{width:100%;height:auto;background:#fff;border:1px solid var(--line);border-radius:6px}
.chart .plot{fill:#fff}.chart .grid{stroke:#f1f5f9}.chart .axis{font-size:11px;fill:var(--mute)}
.chart .near{stroke:#d97706;stroke-dasharray:6 4}.chart .near-label{font-size:11px;fill:#b45309}
.chart .handoff{stroke:#dc2626;stroke-width:1.5}.chart .handoff-label{font-size:11px;fill:#b91c1c}
.chart .gen-start{stroke-opacity:.35;stroke-dasharray:2 3}.chart .gen-label{font-size:12px;font-weight:600}
.chart .curve{fill:none;stroke-width:2;stroke-linejoin:round}
.chart .asked line{stroke:#dc2626;stroke-dasharray:3 3}.chart .asked circle{stroke:#fff;stroke-width:2}
.chart .compaction path{stroke:#111827;stroke-width:2.5}.chart .overflow path{fill:#dc2626}
.chart .empty{font-size:14px;fill:var(--mute)}
.legend{display:flex;flex-wrap:wrap;gap:4px 16px;margin:6px 0;color:var(--mute);font-size:12px}
.swatch{display:inline-block;width:18px;height:3px;vertical-align:middle;margin-right:4px}
table.timeline{border-collapse:collapse;width:100%;font-size:13px;background:#fff}
.timeline th,.timeline td{border:1px solid var(--line);padding:4px 6px;text-align:left;vertical-align:top}
.timeline th{background:#f3f4f6}.num{text-align:right!important;white-space:nowrap}
.end-handoff{color:#15803d}.end-degraded,.end-crash,.end-stopped{color:#b91c1c}.end-running{color:#2563eb}
.problems{margin:0;padding-left:16px;color:#991b1b}.remark{color:#1d4ed8}
.doc{background:#fff;border:1px solid var(--line);border-radius:6px;padding:4px 16px}
.doc h3,.doc h4,.doc h5,.doc h6{margin:12px 0 4px}
pre,code{font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}
pre{white-space:pre-wrap;word-break:break-word;background:#f3f4f6;padding:8px;border-radius:4px}
code{overflow-wrap:anywhere}.facts dd{min-width:0;overflow-wrap:anywhere}
@media (max-width:640px){body{padding:12px}table.timeline{display:block;overflow-x:auto}}
.diff{background:#fff;border:1px solid var(--line);border-radius:6px;padding:6px 0;margin:0}
.diff div{padding:0 8px;white-space:pre-wrap;word-break:break-word}
.diff .add{background:#dcfce7}.diff .del{background:#fee2e2;text-decoration:line-through;text-decoration-color:#f87171}
.diff .gap{color:var(--mute);font-style:italic}
.missing{color:#b45309;font-style:italic}
details{margin:8px 0}summary{cursor:pointer;color:#1d4ed8}
footer{margin-top:32px;color:var(--mute);font-size:12px}
`;

const e = escapeHtml;

/** a page's start in the report's style: its head, its title and its facts (`facts`' values already HTML) */
export function pageTop(title: string, style: string, facts: ReadonlyArray<readonly [string, string]>): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(title)}</title>
<style>${style}</style></head>
<body>
<header><h1>${e(title)}</h1>
<dl class="facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl></header>`;
}

function when(iso: string | null): string {
  return iso ? e(`${String(iso).slice(0, 10)} ${String(iso).slice(11, 19)} UTC`) : '—';
}

export function formatDuration(msValue: number | null): string {
  if (msValue === null) return '—';
  const s = Math.round(msValue / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

function money(usd: number | null): string {
  return usd === null ? '—' : e(`$${usd.toFixed(4)}`);
}

// Inline Markdown on already-escaped text: `code` and **bold**.
function inline(escaped: string): string {
  return escaped.replace(/`([^`]+)`/g, '<code>$1</code>').replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}

// Enough Markdown for a handoff document: headings, lists, fenced code, paragraphs. Escaped first.
export function renderMarkdown(text: string): string {
  const out: string[] = [];
  let para: string[] = [];
  let list: { tag: 'ul' | 'ol'; items: string[] } | null = null;
  let fence: string[] | null = null;
  const flush = (): void => {
    if (para.length > 0) out.push(`<p>${inline(e(para.join(' ')))}</p>`);
    para = [];
    if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(e(i))}</li>`).join('')}</${list.tag}>`);
    list = null;
  };
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    if (fence !== null) {
      if (/^\s*(```|~~~)/.test(line)) {
        out.push(`<pre>${e(fence.join('\n'))}</pre>`);
        fence = null;
      } else fence.push(line);
      continue;
    }
    if (/^\s*(```|~~~)/.test(line)) {
      flush();
      fence = [];
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = Math.min(6, (heading[1] as string).length + 2);
      out.push(`<h${level}>${inline(e(heading[2] as string))}</h${level}>`);
      continue;
    }
    const item = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(line);
    if (item) {
      const tag = item[1] ? 'ul' : 'ol';
      if (para.length > 0 || (list && list.tag !== tag)) flush();
      list ??= { tag, items: [] };
      list.items.push(item[3] as string);
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (list && /^\s+\S/.test(line)) {
      // a continuation of the list item above
      list.items[list.items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    if (list) flush();
    para.push(line.trim());
  }
  if (fence !== null) out.push(`<pre>${e(fence.join('\n'))}</pre>`);
  flush();
  return out.join('\n');
}

const DIFF_CONTEXT = 3;

// The diff with long unchanged stretches folded to a line that says how many.
export function renderDiff(lines: readonly DiffLine[]): string {
  const near = lines.map(() => false);
  lines.forEach((l, i) => {
    if (l.op === 'same') return;
    for (let k = Math.max(0, i - DIFF_CONTEXT); k <= Math.min(lines.length - 1, i + DIFF_CONTEXT); k++) near[k] = true;
  });
  const out: string[] = [];
  let skipped = 0;
  lines.forEach((l, i) => {
    if (!near[i]) {
      skipped += 1;
      return;
    }
    if (skipped > 0) out.push(`<div class="gap">… ${skipped} unchanged line(s)</div>`);
    skipped = 0;
    const sign = l.op === 'add' ? '+ ' : l.op === 'del' ? '− ' : '  ';
    out.push(`<div class="${e(l.op)}">${sign}${e(l.text)}</div>`);
  });
  if (skipped > 0) out.push(`<div class="gap">… ${skipped} unchanged line(s)</div>`);
  return `<pre class="diff">${out.join('')}</pre>`;
}

function documentHtml(d: DocumentReport): string {
  const parts = [`<p>Frozen to <code>${e(d.path)}</code> (${drawn((d.bytes / 1024).toFixed(1))} KB).</p>`];
  if (d.truncated) parts.push(`<p class="missing">This document is ${drawn((d.bytes / 1048576).toFixed(1))} MB: only its beginning is shown.</p>`);
  parts.push(`<div class="doc">${renderMarkdown(d.text)}</div>`);
  if (d.edit) {
    const changed = d.edit.changedSections.length > 0 ? d.edit.changedSections.join(', ') : 'no section';
    parts.push(`<h4>A person edited it (${e(changed)} changed): the model's draft against the version the successor read</h4>`);
    if (d.edit.diff) {
      const { added, removed, coarse } = d.edit.diff;
      parts.push(`<p>${drawn(added)} line(s) added, ${drawn(removed)} removed${coarse ? ' (too large to align line by line: shown as removed then added)' : ''}.</p>`);
      parts.push(renderDiff(d.edit.diff.lines));
    } else {
      parts.push(`<p class="missing">The model's draft ${d.edit.draftPath ? `(<code>${e(d.edit.draftPath)}</code>) is not on disk` : 'was not kept'}: no diff.</p>`);
    }
  }
  return parts.join('\n');
}

function deadEndsHtml(d: GenerationDeadEnds): string {
  const parts = [`<p class="deadends">Dead ends: ${e(deadEndsWords(d))}.</p>`];
  if (d.missing.length > 0) parts.push(`<p>Added by flower-pty's facts (not in the document): ${d.missing.map((m) => `<code>${e(m)}</code>`).join(', ')}</p>`);
  if (d.repeats.length > 0) {
    const items = d.repeats.map((r) => `<li><code>${e(r.call)}</code> ${r.ok ? 'worked this time' : 'failed again'}: ${e(r.deadEnd)}${r.line === null ? '' : ` (document line ${drawn(r.line)})`}</li>`);
    parts.push(`<p>Repeated by its successor:</p><ul>${items.join('')}</ul>`);
  }
  return parts.join('\n');
}

function coverageHtml(c: GenerationCoverage): string {
  const parts = [`<p class="coverage">What its document carries of what its transcript shows: ${e(coverageWords(c))}.</p>`];
  if (c.missing.length > 0) parts.push(`<p>Left out: ${c.missing.map((m) => `<code>${e(m)}</code>`).join(', ')}</p>`);
  for (const why of c.skipped) parts.push(`<p class="missing">${e(why)}.</p>`);
  return parts.join('\n');
}

function generationHtml(g: GenerationReport, colour: string): string {
  const parts = [`<h2 id="gen-${drawn(g.n)}"><span class="swatch" style="background:${colour}"></span>Generation ${drawn(g.n)}</h2>`];
  parts.push(`<p>Session <code>${e(g.sessionId)}</code> · ${e(g.endWords)}</p>`);
  if (g.transcript.found) {
    parts.push(`<p>Transcript <code>${e(g.transcript.path ?? '')}</code>: ${drawn((g.transcript.bytes / 1048576).toFixed(2))} MB, ${drawn(g.transcript.readings)} reading(s), ${drawn(g.curve.length)} drawn${g.transcript.untimed ? ' (no timestamps: spread over the generation by line)' : ''}.</p>`);
  } else {
    parts.push(`<p class="missing">No transcript: ${e(g.transcript.problem ?? 'not found')}. The curve of this generation is missing.</p>`);
  }
  if (g.firstPrompt) {
    const label = g.firstPrompt.source === 'original' ? 'The first prompt' : "The successor's first prompt";
    parts.push(
      `<details><summary>${label} (${e(g.firstPrompt.note ?? g.firstPrompt.source)})</summary><pre>${e(g.firstPrompt.text)}</pre></details>`,
    );
  } else if (g.n > 1) {
    parts.push(`<p class="missing">The first prompt of this generation cannot be shown: the document it started from is not on disk.</p>`);
  }
  if (g.deadEnds) parts.push(deadEndsHtml(g.deadEnds));
  if (g.coverage) parts.push(coverageHtml(g.coverage));
  if (g.document) {
    parts.push(`<h3>Its handoff document</h3>`, documentHtml(g.document));
  } else if (g.end === 'handoff' || g.end === 'degraded') {
    parts.push(`<p class="missing">Its handoff document is not on disk.</p>`);
  }
  return `<section class="generation">${parts.join('\n')}</section>`;
}

function timelineHtml(m: ReportModel): string {
  const rows = m.generations.map((g, i) => {
    const colour = GENERATION_COLOURS[i % GENERATION_COLOURS.length] as string;
    const problems = g.problems.length > 0 ? `<ul class="problems">${g.problems.map((p) => `<li>${e(p)}</li>`).join('')}</ul>` : '';
    const remarks = g.remarks.map((r) => `<div class="remark">${e(r)}</div>`).join('');
    return (
      `<tr><td><a href="#gen-${drawn(g.n)}"><span class="swatch" style="background:${colour}"></span>#${drawn(g.n)}</a></td>` +
      `<td>${when(g.startedAt)}</td><td>${when(g.endedAt)}</td>` +
      `<td class="end-${drawn(g.end)}">${e(g.endWords)}</td><td class="num">${drawn(formatDuration(g.durationMs))}</td>` +
      `<td class="num">${drawn(formatTokens(g.peak))}</td><td class="num">${money(g.costUsd)}</td><td class="num">${drawn(g.turns ?? '—')}</td>` +
      `<td>${problems}${remarks}${problems || remarks ? '' : '—'}</td>` +
      `<td class="deadends">${g.deadEnds ? e(deadEndsWords(g.deadEnds)) : '—'}</td></tr>`
    );
  });
  return (
    `<table class="timeline"><thead><tr><th>gen</th><th>start</th><th>end</th><th>how it ended</th><th>duration</th>` +
    `<th>peak</th><th>cost</th><th>turns</th><th>errors and reasons</th><th>dead ends</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

export function renderReportHtml(m: ReportModel): string {
  const title = `flower-pty report${m.step ? ` · ${m.step}` : ''}`;
  const th = m.thresholds;
  const facts: Array<[string, string]> = [
    ['step', e(m.step ?? '—')],
    ['folder', m.cwd ? `<code>${e(m.cwd)}</code>` : '—'],
    ['workbench', `<code>${e(m.workbench)}</code>`],
    ['generations', drawn(m.generations.length)],
    ['wall clock', `${when(m.startedAt)} → ${when(m.endedAt)}${m.live ? ' (live: up to now)' : ''} · ${drawn(formatDuration(m.spanMs))}`],
    ['total cost', money(m.costUsd)],
    ['total turns', drawn(m.turns)],
    ['how it ended', e(m.ending)],
    ['dead ends', e(m.deadEndsTrend ?? 'nothing failed and no document lists a dead end (or no record of it)')],
    ['window', th ? e(`${formatTokens(th.window)} · near at ${formatTokens(th.warnAt)} · handoff at ${formatTokens(th.at)}`) : '—'],
  ];
  const notes = m.notes.length > 0 ? `<div class="notes"><strong>Missing data</strong><ul>${m.notes.map((n) => `<li>${e(n)}</li>`).join('')}</ul></div>` : '';
  const legend =
    `<div class="legend">${m.generations.map((g, i) => `<span><span class="swatch" style="background:${GENERATION_COLOURS[i % GENERATION_COLOURS.length]}"></span>generation ${drawn(g.n)}</span>`).join('')}` +
    `<span>┈ near line</span><span>━ handoff line (red)</span><span>● handoff asked for</span><span>✕ compaction</span><span>▲ overflow</span></div>`;
  return `${pageTop(title, REPORT_STYLE, facts)}
${notes}
<h2>Context over time</h2>
${renderChart(m)}
${legend}
<h2>Generations</h2>
${timelineHtml(m)}
${m.generations.map((g, i) => generationHtml(g, GENERATION_COLOURS[i % GENERATION_COLOURS.length] as string)).join('\n')}
${m.otherDocuments.length > 0 ? `<h2>Documents no generation of this lineage claims</h2>\n${m.otherDocuments.map(documentHtml).join('\n')}` : ''}
<footer>Made by flower-pty report at ${when(m.generatedAt)} from the manifest, the documents, the events file and the transcripts. Self-contained: no script, no network.</footer>
</body></html>
`;
}
