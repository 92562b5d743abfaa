// The report as one self-contained HTML page: inline CSS and an inline SVG, no script, no font, no
// link to anywhere, so it opens from disk on a machine with no network. Pure. Every text that
// comes from a document, a prompt, a transcript or a path is escaped.

import type { DocumentReport, GenerationReport, ReportModel } from './report-model.js';
import type { DiffLine } from '../document/line-diff.js';
import { renderChart, drawn, GENERATION_COLOURS } from './report-chart.js';
import { escapeHtml } from '../html-escape.js';
import { pageTop, REPORT_STYLE } from '../page-chrome.js';
import { formatTokens } from '../meter/token-format.js';
import { deadEndsWords, type GenerationDeadEnds } from './report-dead-ends.js';
import { coverageWords, type GenerationCoverage } from './report-coverage.js';

const e = escapeHtml;

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
  if (d.truncated)
    parts.push(
      `<p class="missing">This document is ${drawn((d.bytes / 1048576).toFixed(1))} MB: only its beginning is shown.</p>`,
    );
  parts.push(`<div class="doc">${renderMarkdown(d.text)}</div>`);
  if (d.edit) {
    const changed = d.edit.changedSections.length > 0 ? d.edit.changedSections.join(', ') : 'no section';
    parts.push(
      `<h4>A person edited it (${e(changed)} changed): the model's draft against the version the successor read</h4>`,
    );
    if (d.edit.diff) {
      const { added, removed, coarse } = d.edit.diff;
      parts.push(
        `<p>${drawn(added)} line(s) added, ${drawn(removed)} removed${coarse ? ' (too large to align line by line: shown as removed then added)' : ''}.</p>`,
      );
      parts.push(renderDiff(d.edit.diff.lines));
    } else {
      parts.push(
        `<p class="missing">The model's draft ${d.edit.draftPath ? `(<code>${e(d.edit.draftPath)}</code>) is not on disk` : 'was not kept'}: no diff.</p>`,
      );
    }
  }
  return parts.join('\n');
}

function deadEndsHtml(d: GenerationDeadEnds): string {
  const parts = [`<p class="deadends">Dead ends: ${e(deadEndsWords(d))}.</p>`];
  if (d.missing.length > 0)
    parts.push(
      `<p>Added by flower-pty's facts (not in the document): ${d.missing.map((m) => `<code>${e(m)}</code>`).join(', ')}</p>`,
    );
  if (d.repeats.length > 0) {
    const items = d.repeats.map(
      (r) =>
        `<li><code>${e(r.call)}</code> ${r.ok ? 'worked this time' : 'failed again'}: ` +
        `${e(r.deadEnd)}${r.line === null ? '' : ` (document line ${drawn(r.line)})`}</li>`,
    );
    parts.push(`<p>Repeated by its successor:</p><ul>${items.join('')}</ul>`);
  }
  return parts.join('\n');
}

function coverageHtml(c: GenerationCoverage): string {
  const parts = [
    `<p class="coverage">What its document carries of what its transcript shows: ${e(coverageWords(c))}.</p>`,
  ];
  if (c.missing.length > 0) parts.push(`<p>Left out: ${c.missing.map((m) => `<code>${e(m)}</code>`).join(', ')}</p>`);
  for (const why of c.skipped) parts.push(`<p class="missing">${e(why)}.</p>`);
  return parts.join('\n');
}

function generationHtml(g: GenerationReport, colour: string): string {
  const parts = [
    `<h2 id="gen-${drawn(g.n)}"><span class="swatch" style="background:${colour}"></span>Generation ${drawn(g.n)}</h2>`,
  ];
  parts.push(`<p>Session <code>${e(g.sessionId)}</code> · ${e(g.endWords)}</p>`);
  if (g.transcript.found) {
    parts.push(
      `<p>Transcript <code>${e(g.transcript.path ?? '')}</code>: ${drawn((g.transcript.bytes / 1048576).toFixed(2))} MB, ` +
        `${drawn(g.transcript.readings)} reading(s), ` +
        `${drawn(g.curve.length)} drawn${g.transcript.untimed ? ' (no timestamps: spread over the generation by line)' : ''}.</p>`,
    );
  } else {
    parts.push(
      `<p class="missing">No transcript: ${e(g.transcript.problem ?? 'not found')}. The curve of this generation is missing.</p>`,
    );
  }
  if (g.firstPrompt) {
    const label = g.firstPrompt.source === 'original' ? 'The first prompt' : "The successor's first prompt";
    parts.push(
      `<details><summary>${label} (${e(g.firstPrompt.note ?? g.firstPrompt.source)})</summary><pre>${e(g.firstPrompt.text)}</pre></details>`,
    );
  } else if (g.n > 1) {
    parts.push(
      `<p class="missing">The first prompt of this generation cannot be shown: the document it started from is not on disk.</p>`,
    );
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
    const problems =
      g.problems.length > 0 ? `<ul class="problems">${g.problems.map((p) => `<li>${e(p)}</li>`).join('')}</ul>` : '';
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
    [
      'wall clock',
      `${when(m.startedAt)} → ${when(m.endedAt)}${m.live ? ' (live: up to now)' : ''} · ${drawn(formatDuration(m.spanMs))}`,
    ],
    ['total cost', money(m.costUsd)],
    ['total turns', drawn(m.turns)],
    ['how it ended', e(m.ending)],
    ['dead ends', e(m.deadEndsTrend ?? 'nothing failed and no document lists a dead end (or no record of it)')],
    [
      'window',
      th
        ? e(`${formatTokens(th.window)} · near at ${formatTokens(th.warnAt)} · handoff at ${formatTokens(th.at)}`)
        : '—',
    ],
  ];
  const notes =
    m.notes.length > 0
      ? `<div class="notes"><strong>Missing data</strong><ul>${m.notes.map((n) => `<li>${e(n)}</li>`).join('')}</ul></div>`
      : '';
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
