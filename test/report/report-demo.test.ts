// The demo's real lineage (the real claude 2.1.332 in a pty against the mock) makes a report: its
// curves are the transcripts' readings, the handoff moment is the events file's, and the successor's
// first prompt the report reproduces is, byte for byte, the prompt the real successor received.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReportModel } from '../../src/core/report/report-model.js';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'flower-pty.js');

function firstHumanPrompt(transcript: string): string | null {
  for (const line of readFileSync(transcript, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    const r = JSON.parse(line) as { type?: string; isMeta?: boolean; message?: { content?: unknown } };
    if (r.type !== 'user' || r.isMeta) continue;
    const c = r.message?.content;
    if (typeof c === 'string') return c;
    if (Array.isArray(c))
      return c
        .filter((b: { type?: string }) => b.type === 'text')
        .map((b: { text?: string }) => b.text ?? '')
        .join('\n');
  }
  return null;
}

t.test("a report of the demo's lineage", async (t) => {
  const demo = spawnSync(process.execPath, [bin, 'demo', '--plain', '--review', '1'], {
    encoding: 'utf8',
    input: '',
    timeout: 240_000,
    env: { ...process.env, NO_COLOR: '1' },
  });
  t.equal(demo.status, 0, `the demo ran\n${demo.stderr.slice(-2000)}`);
  const root = /rm -rf (\S+)/.exec(demo.stdout)?.[1];
  if (!root) return t.fail(`no folder in the demo's output:\n${demo.stdout.slice(-2000)}`);
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const workbench = join(root, 'project', '.flower');
  const env = { PATH: process.env.PATH ?? '', HOME: join(root, 'home'), CLAUDE_CONFIG_DIR: join(root, 'config') };
  const args = [bin, 'report', '--workbench', workbench, '--events', join(root, 'events.jsonl')];
  const html = spawnSync(process.execPath, args, { encoding: 'utf8', env, timeout: 60_000 });
  t.equal(html.status, 0, html.stderr);
  const json = spawnSync(process.execPath, [...args, '--json'], { encoding: 'utf8', env, timeout: 60_000 });
  const m = JSON.parse(json.stdout) as ReportModel;
  t.equal(m.generations.length, 2);
  t.same(m.notes, [], 'nothing missing');
  const [g1, g2] = m.generations as [ReportModel['generations'][number], ReportModel['generations'][number]];
  t.equal(g1.end, 'handoff');
  t.equal(g1.handoffAsked?.source, 'events', "the moment is the events file's `writing` line");
  t.ok((g1.handoffAsked?.v ?? 0) >= (m.thresholds?.at ?? Infinity), 'asked for past the handoff line');
  t.ok(g1.curve.length >= 4 && g2.curve.length >= 1, 'both curves drawn');
  t.equal(Math.max(...g1.curve.map((p) => p.v)), g1.peak, "the curve's top is the generation's peak");
  t.ok(g1.document?.text.includes('## Next'), 'the frozen document');
  t.equal(g2.firstPrompt?.source, 'recorded', "the run keeps every successor's first prompt in the workbench");
  // The successor's typed-by-nobody prompt only names its context; the recorded prompt is that context,
  // which its transcript holds too (the hook's additionalContext): what the real successor got.
  t.match(firstHumanPrompt(g2.transcript.path ?? ''), /TAKING OVER[\s\S]*as the context of this message/);
  const transcriptText = readFileSync(g2.transcript.path ?? '', 'utf8');
  t.ok(
    g2.firstPrompt?.text && transcriptText.includes(JSON.stringify(g2.firstPrompt.text.trim()).slice(1, -1)),
    'the recorded prompt is the one the real successor got',
  );
  const page = readFileSync(join(workbench, 'report.html'), 'utf8');
  t.match(page, '<dt>generations</dt><dd>2</dd>');
  t.equal((page.match(/<polyline/g) ?? []).length, 2);

  // The summary's last lines, typed as they are from another folder, in a shell whose Claude config folder
  // is not the demo's: the transcripts are found where the run recorded them.
  const lastLines = demo.stdout.trimEnd().split('\n').slice(-3);
  t.equal(lastLines[0], '  its lineage, from here:');
  // the demo ran in the checkout (the test's folder) with no flower-pty on the PATH: npx finds its bin there
  const [status, report] = lastLines.slice(1).map((line) => line.trim());
  t.match(status, /^npx flower-pty status --workbench /);
  t.match(report, /^npx flower-pty report --workbench /);
  rmSync(join(workbench, 'report.html'));
  const elsewhere = {
    PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: join(root, 'another-home'),
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
  };
  // pasted into a shell in the folder the demo was started in
  const statusRun = spawnSync('sh', ['-c', status!], { encoding: 'utf8', env: elsewhere, timeout: 60_000 });
  t.equal(statusRun.status, 0, statusRun.stderr);
  t.match(statusRun.stdout, /^step work · 2 generation\(s\)/);
  const reportRun = spawnSync('sh', ['-c', report!], { encoding: 'utf8', env: elsewhere, timeout: 60_000 });
  t.equal(reportRun.status, 0, reportRun.stderr);
  const again = readFileSync(join(workbench, 'report.html'), 'utf8');
  t.equal((again.match(/<polyline/g) ?? []).length, 2, "both curves, from the demo's own config folder");
  t.notMatch(again, /not found at|gone/, 'nothing missing');
});
