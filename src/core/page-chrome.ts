// The look every page flower-pty writes shares (the report, the eval page): its style sheet and a page's
// start (head, title, facts). Below both pages in core's layers, so neither borrows from the other. Pure.

import { escapeHtml } from './html-escape.js';

const e = escapeHtml;

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
