// The report page: Markdown rendering, escaping of everything from a document, the diff, no script.
import t from 'tap';
import { renderMarkdown, renderDiff, renderReportHtml, formatDuration } from '../../../src/core/report/report-html.js';
import { escapeHtml } from '../../../src/core/html-escape.js';
import { buildReport, type ReportInput } from '../../../src/core/report/report-model.js';
import { diffLines } from '../../../src/core/document/line-diff.js';

t.test('escapeHtml: the five characters, and controls dropped', async (t) => {
  t.equal(escapeHtml(`<a href="x">'&'</a>\u0007`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
});

t.test('Markdown: headings, lists, fences, paragraphs, inline code and bold', async (t) => {
  const html = renderMarkdown(
    '# Title\n\n## Next · 下一步\n\nSome **bold** and `code`\nwrapped.\n\n- one\n- two\n  continued\n\n1. first\n2) second\n\n```\n<raw> & code\n```\n',
  );
  t.match(html, '<h3>Title</h3>');
  t.match(html, '<h4>Next · 下一步</h4>');
  t.match(html, '<p>Some <strong>bold</strong> and <code>code</code> wrapped.</p>');
  t.match(html, '<ul><li>one</li><li>two continued</li></ul>');
  t.match(html, '<ol><li>first</li><li>second</li></ol>');
  t.match(html, '<pre>&lt;raw&gt; &amp; code</pre>');
});

t.test('HTML and script in a document come out as text', async (t) => {
  const html = renderMarkdown(
    '<script>alert(1)</script>\n\n- <img src=x onerror=alert(2)>\n\n## <iframe src="http://evil">\n\n`<script>`',
  );
  t.notMatch(html, /<script|<img|<iframe/i);
  t.match(html, '&lt;script&gt;alert(1)&lt;/script&gt;');
  t.match(html, '&lt;img src=x onerror=alert(2)&gt;');
});

t.test('the diff folds long unchanged stretches and marks the changes', async (t) => {
  const before = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
  const after = before.replace('line 15', 'LINE <15>');
  const html = renderDiff(diffLines(before, after).lines);
  t.match(html, '<div class="del">− line 15</div><div class="add">+ LINE &lt;15&gt;</div>');
  t.match(html, '… 12 unchanged line(s)');
  t.match(html, '… 11 unchanged line(s)');
  t.notMatch(html, 'line 2</div>', 'far lines are folded');
});

t.test('durations in words', async (t) => {
  t.equal(formatDuration(null), '—');
  t.equal(formatDuration(45_000), '45 s');
  t.equal(formatDuration(125_000), '2 min 05 s');
  t.equal(formatDuration(3_725_000), '1 h 02 min');
});

t.test('an empty lineage still makes a whole page, with no script and no external reference', async (t) => {
  const input: ReportInput = {
    workbench: '/w/<wb>',
    now: '2026-12-01T00:00:00.000Z',
    manifest: null,
    manifestProblem: 'no manifest at /w/manifest.json',
    events: null,
    eventsPath: null,
    eventsProblem: null,
    documents: [
      {
        path: '/w/notes/交接-work.md',
        kind: 'current',
        text: '# x\n<script>alert(1)</script>',
        bytes: 30,
        truncated: false,
      },
    ],
    transcripts: new Map(),
    spilledPrompts: new Map(),
    documentLimit: 1024,
  };
  const model = buildReport(input);
  const html = renderReportHtml(model);
  t.match(html, /^<!doctype html>/);
  t.match(html, 'no manifest at /w/manifest.json: only the documents are shown');
  t.match(html, 'no transcript readings to draw');
  t.match(html, 'Documents no generation of this lineage claims');
  t.match(html, '&lt;script&gt;alert(1)&lt;/script&gt;', 'the unclaimed document is shown, as text');
  t.match(html, '/w/&lt;wb&gt;');
  t.notMatch(
    html,
    /<script|<link|@import|url\(|src=|https?:\/\/(?!www\.w3\.org\/2000\/svg)/i,
    'nothing is loaded from anywhere',
  );
});
