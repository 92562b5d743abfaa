// `flower-pty eval compaction --html FILE`: the scores as one self-contained page in the report's style
// (no script, no font, no link out): a bar per category for all summaries together, then each summary with
// its bars and what it missed. Pure; every text from a transcript or a path is escaped.

import { escapeHtml as e } from '../html-escape.js';
import { pageTop, REPORT_STYLE } from '../page-chrome.js';
import { CATEGORIES, type Category } from '../coverage/successor-facts.js';
import { scoreTotals } from '../coverage/coverage-score.js';
import { CATEGORY_TITLES, foundText, type EvalSummary } from './eval-result.js';

const STYLE = `${REPORT_STYLE}
.bars{display:grid;grid-template-columns:max-content 1fr max-content;gap:4px 12px;align-items:center;margin:8px 0}
.bar{height:12px;background:#e5e7eb;border-radius:3px;overflow:hidden}.bar span{display:block;height:100%;background:#15803d}
.bar.none span{background:none}.figure{font-variant-numeric:tabular-nums;white-space:nowrap}
.missed{margin:4px 0 12px;padding-left:18px}.missed li{overflow-wrap:anywhere}
`;

/** items of one category listed on the page at most (the JSON has them all) */
export const MISSING_SHOWN = 50;

function bars(counts: Record<Category, { found: number; total: number }>): string {
  const rows = CATEGORIES.map((c) => {
    const { found, total } = counts[c];
    const pct = total === 0 ? 0 : Math.round((found / total) * 100);
    return `<span>${e(CATEGORY_TITLES[c])}</span><div class="bar${total === 0 ? ' none' : ''}" role="img" aria-label="${e(`${CATEGORY_TITLES[c]}: ${foundText(found, total)}`)}"><span style="width:${pct}%"></span></div><span class="figure">${e(foundText(found, total))}</span>`;
  });
  return `<div class="bars">${rows.join('')}</div>`;
}

function missed(s: EvalSummary): string {
  const parts: string[] = [];
  for (const c of CATEGORIES) {
    const items = s.score[c].missing;
    if (items.length === 0) continue;
    const more = items.length > MISSING_SHOWN ? `<li>… and ${items.length - MISSING_SHOWN} more</li>` : '';
    parts.push(
      `<h4>${e(CATEGORY_TITLES[c])} missing</h4><ul class="missed">${items
        .slice(0, MISSING_SHOWN)
        .map((m) => `<li><code>${e(m)}</code></li>`)
        .join('')}${more}</ul>`,
    );
  }
  return parts.length === 0
    ? '<p>Nothing missing.</p>'
    : `<details><summary>What it missed</summary>${parts.join('')}</details>`;
}

export function renderEvalPage(o: {
  summaries: readonly EvalSummary[];
  transcripts: number;
  notes: readonly string[];
  now: string;
  shown: (path: string) => string;
}): string {
  const title = 'What compaction kept';
  const totals = scoreTotals(o.summaries.map((s) => s.score));
  const notes =
    o.notes.length > 0
      ? `<div class="notes"><strong>Notes</strong><ul>${o.notes.map((n) => `<li>${e(n)}</li>`).join('')}</ul></div>`
      : '';
  const each = o.summaries
    .map((s) => `<h3><code>${e(o.shown(s.transcript))}</code> line ${s.line}</h3>${bars(s.score)}${missed(s)}`)
    .join('\n');
  const facts = [
    ['summaries', String(o.summaries.length)],
    ['transcripts read', String(o.transcripts)],
    ['written', `${e(o.now.slice(0, 19).replace('T', ' '))} UTC`],
  ] as const;
  return `${pageTop(title, STYLE, facts)}
${notes}
<p>Each compaction summary is scored against the main thread of its transcript before it: of the facts a successor must have, how many it carries (the rules: docs/eval.md in flower-pty).</p>
<h2>All summaries</h2>
${o.summaries.length === 0 ? '<p>No compaction summary was found.</p>' : bars(totals)}
<h2>Each summary</h2>
${each}
<footer>flower-pty eval compaction</footer>
</body></html>
`;
}
