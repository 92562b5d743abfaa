// `flower-pty eval compaction` on the real transcripts and on bad input: the JSON's exact shape (the line
// of each summary row, totals that add up), the table, the page (escaped), and one line with nothing
// written for a file that is not JSONL, a missing path, a folder as --html; a torn last line tolerated
// with a note; a folder with no summary said so (exit 0); an interruption keeps what was read whole.
import t from 'tap';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { runEval, type EvalOptions } from '../src/commands/eval.js';
import { CATEGORIES } from '../src/core/coverage/successor-facts.js';
import { FlowerError } from '../src/core/errors.js';
import { claudeFixtures, fixturesDir } from './helpers/fixtures.js';
import { FLOWER_BIN, REPO } from './helpers/flower-run.js';
import { tempRoot } from './helpers/temp-root.js';

const SPOTTER = join(fixturesDir(), 'spotter-2.1.39');
const COMPACTED = join(SPOTTER, '4d5611e5-241a-462a-8d15-5122611a9569.jsonl');
const REACTIVE = claudeFixtures(
  '2.1.332',
  'sessions',
  'compaction-reactive-and-subagent',
  '72ec2795-483a-4f28-b4e2-a3308c76fd3f.jsonl',
);

async function evalOf(
  paths: string[],
  extra: Partial<EvalOptions> = {},
): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runEval({
    what: 'compaction',
    paths,
    json: false,
    cwd: REPO,
    env: {},
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    ...extra,
  });
  return { code, out, err };
}

async function refusal(paths: string[], extra: Partial<EvalOptions> = {}): Promise<string> {
  try {
    await evalOf(paths, extra);
  } catch (error) {
    if (error instanceof FlowerError) return error.message;
    throw error;
  }
  return 'not refused';
}

const scratch = (): string => tempRoot(t, 'flower-eval-');

t.test("--json: exactly the documented shape, each line the summary row's, totals the sums", async (t) => {
  const { code, out } = await evalOf([SPOTTER, REACTIVE], { json: true });
  t.equal(code, 0);
  t.equal(out.length, 1, 'one JSON document');
  type Score = Record<string, { found: number; total: number; missing: string[] }>;
  const doc = JSON.parse(out[0]!) as {
    summaries: Array<{ transcript: string; line: number; categories: Score; since_previous: Score }>;
    totals: Record<string, { found: number; total: number }>;
    totals_since_previous: Record<string, { found: number; total: number }>;
  };
  t.same(Object.keys(doc), ['summaries', 'totals', 'totals_since_previous']);
  t.equal(doc.summaries.length, 5, 'three spotter compactions and two in the 2.1.332 recording');
  for (const s of doc.summaries) {
    t.same(Object.keys(s), ['transcript', 'line', 'categories', 'since_previous']);
    t.same(Object.keys(s.categories), [...CATEGORIES]);
    t.same(Object.keys(s.since_previous), [...CATEGORIES]);
    for (const c of CATEGORIES) {
      t.same(Object.keys(s.categories[c]!), ['found', 'total', 'missing']);
      t.equal(
        s.categories[c]!.total - s.categories[c]!.found,
        s.categories[c]!.missing.length,
        `${c}: missing is what was not found`,
      );
    }
    const row = JSON.parse(readFileSync(s.transcript, 'utf8').split('\n')[s.line - 1]!) as {
      isCompactSummary?: boolean;
    };
    t.equal(row.isCompactSummary, true, `${s.transcript}:${s.line} is the summary row (1-based)`);
  }
  t.same(Object.keys(doc.totals), [...CATEGORIES]);
  for (const c of CATEGORIES) {
    t.same(Object.keys(doc.totals[c]!), ['found', 'total']);
    t.equal(
      doc.totals[c]!.total,
      doc.summaries.reduce((n, s) => n + s.categories[c]!.total, 0),
      `${c}: the total adds up`,
    );
    t.equal(
      doc.totals[c]!.found,
      doc.summaries.reduce((n, s) => n + s.categories[c]!.found, 0),
    );
  }
  t.ok(
    doc.totals.files!.total > 0 && doc.totals.files!.found < doc.totals.files!.total,
    'compaction kept most files but not all',
  );
  // Both countings: a first compaction's facts are the same either way; the 2.1.332 recording's second one had
  // its subagent call's failure before the first compaction, so since then it has none, from the start one.
  const [first, second] = doc.summaries.filter((s) => s.transcript === REACTIVE);
  t.same(first!.since_previous, first!.categories, 'a first compaction: the two countings agree');
  t.same(
    [second!.since_previous.dead_ends!.total, second!.categories.dead_ends!.total],
    [0, 1],
    'a second one: only the facts since the first, against all of them',
  );
  for (const c of CATEGORIES)
    t.equal(
      doc.totals_since_previous[c]!.total,
      doc.summaries.reduce((n, s) => n + s.since_previous[c]!.total, 0),
      `${c}: the other total adds up`,
    );
});

t.test('the table: a row per summary, the totals last, paths relative to where it ran', async (t) => {
  const { code, out, err } = await evalOf([COMPACTED]);
  t.equal(code, 0);
  t.same(err, []);
  t.match(out[0]!, /^against the facts since the previous compaction/, 'each counting says which it is');
  t.match(out[1]!, /^line {2}files +dead ends +instructions +tasks +identifiers +transcript$/);
  t.match(
    out[2]!,
    /^ 755 {2}7\/7 100% .*test\/fixtures\/shared\/spotter-2\.1\.39\/4d5611e5-241a-462a-8d15-5122611a9569\.jsonl$/,
  );
  t.match(out[3]!, /total of 1 summary$/);
  t.match(out[4]!, /^against the facts from the transcript's start:$/);
  t.same(out.slice(5), out.slice(1, 4), 'one compaction: the same figures');
  t.equal(out.length, 8);
});

t.test('bad input: one line, nothing written', async (t) => {
  const dir = scratch();
  const page = join(dir, 'page.html');
  const notJsonl = join(dir, 'notes.jsonl');
  writeFileSync(notJsonl, 'this is not json\n{"type":"user"}\n');
  t.match(
    await refusal([COMPACTED, notJsonl], { html: page }),
    /^eval: .*notes\.jsonl is not JSONL: its first line is not JSON/,
  );
  t.notOk(existsSync(page), 'no page written');
  t.match(await refusal([join(dir, 'gone.jsonl')]), /^eval: no such file or folder .*gone\.jsonl/);
  t.match(await refusal([COMPACTED], { html: dir }), /^eval: .* is a folder: name a new file/);
  t.match(
    await refusal([COMPACTED], { what: 'compactoin' }),
    /^eval: there is no "compactoin" to evaluate: flower-pty eval compaction \[FILE\|DIR \.\.\.\], or flower-pty eval fork SESSION/,
    'both kinds of eval named',
  );
  t.match(
    await refusal([], { env: { CLAUDE_CONFIG_DIR: join(dir, 'no-config') } }),
    /^eval: no Claude Code projects folder at .*no-config\/projects: .*CLAUDE_CONFIG_DIR/,
  );
  for (const message of [await refusal([join(dir, 'a\u001b[2Jb')])])
    t.notMatch(message, /[\u0000-\u001f]/, "a path's control characters never reach the terminal");
});

t.test('a .jsonl in a folder that is not JSONL is skipped with a note', async (t) => {
  const dir = scratch();
  writeFileSync(join(dir, 'junk.jsonl'), 'not json at all\n');
  copyFileSync(COMPACTED, join(dir, 'real.jsonl'));
  const { code, out, err } = await evalOf([dir]);
  t.equal(code, 0);
  t.equal(out.length, 8, 'the real one scored (two countings of a head, a row and the totals)');
  t.match(err.join('\n'), /1 \.jsonl file\(s\) that are not JSONL skipped, the first .*junk\.jsonl/);
});

t.test('a torn last line (a session still writing) is read up to the line before, and said', async (t) => {
  const dir = scratch();
  const torn = join(dir, 'torn.jsonl');
  writeFileSync(torn, readFileSync(COMPACTED, 'utf8') + '{"type":"assistant","message":{"content":[{"type":"te');
  const { code, out, err } = await evalOf([torn]);
  t.equal(code, 0);
  t.match(out[2]!, /^ 755 /, 'the summary before it scored');
  t.match(
    err.join('\n'),
    /torn\.jsonl: its last line is cut short \(a session still writing it\?\); read up to the line before/,
  );
  const whole = await evalOf([COMPACTED]);
  t.same(whole.err, [], 'a whole file has no such note');
});

t.test("a folder with no compaction summary says so, exit 0; the default folder is CLAUDE_CONFIG_DIR's", async (t) => {
  const none = await evalOf([claudeFixtures('2.1.332', 'sessions', 'interrupt')]);
  t.equal(none.code, 0);
  t.match(
    none.out.join('\n'),
    /^eval: no compaction summary in 1 transcript\(s\) under test\/fixtures\/claude-code\/2\.1\.332\/sessions\/interrupt: nothing to score$/,
  );
  const config = scratch();
  mkdirSync(join(config, 'projects', '-home-me-proj', 'sess', 'subagents'), { recursive: true });
  copyFileSync(COMPACTED, join(config, 'projects', '-home-me-proj', 'a.jsonl'));
  copyFileSync(COMPACTED, join(config, 'projects', '-home-me-proj', 'sess', 'subagents', 'agent-x.jsonl'));
  const home = await evalOf([], { env: { CLAUDE_CONFIG_DIR: config }, json: true });
  const doc = JSON.parse(home.out[0]!) as { summaries: Array<{ transcript: string }> };
  t.same(
    doc.summaries.map((s) => s.transcript),
    [join(config, 'projects', '-home-me-proj', 'a.jsonl')],
    'found under CLAUDE_CONFIG_DIR; a subagents folder is not a main thread',
  );
});

t.test('interrupted: what was read whole is printed and written, and said; exit 130', async (t) => {
  const dir = scratch();
  for (const name of ['a.jsonl', 'b.jsonl', 'c.jsonl']) copyFileSync(COMPACTED, join(dir, name));
  const stop = new AbortController();
  const page = join(dir, 'page.html');
  const { code, out, err } = await evalOf([dir], {
    signal: stop.signal,
    html: page,
    onTranscript: (_p, i) => (i === 1 ? stop.abort() : undefined),
  });
  t.equal(code, 130);
  t.equal(out.length, 8, 'the one transcript read whole: its row and the totals, in both countings');
  t.match(out[2]!, /a\.jsonl$/);
  t.match(err.join('\n'), /interrupted: 1 of 3 transcript\(s\) read whole; the figures cover those only/);
  t.match(readFileSync(page, 'utf8'), /interrupted: 1 of 3/, 'the page says so too');
});

t.test('the page: a bar per category, every transcript text escaped', async (t) => {
  const dir = scratch();
  const hostile = '/p/<script>alert(1)</script>.ts';
  const rows = [
    { type: 'user', isSidechain: false, message: { role: 'user', content: 'Never write to <b>prod</b> & friends' } },
    {
      type: 'assistant',
      isSidechain: false,
      message: {
        id: 'm1',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 't1', name: 'Write', input: { file_path: hostile, content: '' } }],
      },
    },
    {
      type: 'user',
      isSidechain: false,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
    },
    { type: 'system', subtype: 'compact_boundary', isSidechain: false, compactMetadata: { preTokens: 1 } },
    {
      type: 'user',
      isSidechain: false,
      isCompactSummary: true,
      message: { role: 'user', content: 'Summary: nothing kept.' },
    },
  ];
  const file = join(dir, 'x.jsonl');
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const page = join(dir, 'page.html');
  const { code, err } = await evalOf([file], { html: page });
  t.equal(code, 0);
  t.match(err.join('\n'), /the page is .*page\.html/);
  const html = readFileSync(page, 'utf8');
  t.notMatch(html, /<script/, 'no markup from the transcript');
  t.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;\.ts/);
  t.match(html, /Never write to &lt;b&gt;prod&lt;\/b&gt; &amp; friends/);
  t.equal(
    (html.match(/class="bar"/g) ?? []).length + (html.match(/class="bar none"/g) ?? []).length,
    10,
    'five bars for all, five for the one summary',
  );
});

t.test('the command line: registered, --json through the real bin', async (t) => {
  const r = spawnSync(process.execPath, [FLOWER_BIN, 'eval', 'compaction', COMPACTED, '--json'], {
    encoding: 'utf8',
    cwd: REPO,
  });
  t.equal(r.status, 0, r.stderr);
  t.equal((JSON.parse(r.stdout) as { summaries: unknown[] }).summaries.length, 1);
  const bad = spawnSync(process.execPath, [FLOWER_BIN, 'eval', 'compaction', join(REPO, 'package.json')], {
    encoding: 'utf8',
    cwd: REPO,
  });
  t.equal(bad.status, 2);
  t.equal(bad.stderr.trim().split('\n').length, 1, 'one line');
  t.match(bad.stderr, /is not JSONL/);
});
