// End to end against the REAL claude: the handoff document reaches the successor by a way no other user
// can read. While generation 2 runs, no process's /proc/<pid>/cmdline (world-readable) holds the document's
// text, the project path or the previous transcript's path; the successor's first request to the model
// still holds its whole first prompt, exactly as recorded, document included.
import t from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { text, usageFor, type MockRequest, type MockReply } from '../../src/mock/messages-api.js';
import { startFlower, handoffDoc, HANDOFF_ASK, TAKING_OVER } from '../helpers/flower-run.js';

// Every readable command line on the machine, NUL-separated arguments joined by spaces.
function commandLines(): Array<{ pid: string; line: string }> {
  const lines: Array<{ pid: string; line: string }> = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      lines.push({ pid, line: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ') });
    } catch {
      // gone already
    }
  }
  return lines;
}

t.test("the document is on nobody's command line, and the successor gets it whole", async (t) => {
  const MARKER = `SECRET-${Math.random().toString(36).slice(2, 10)}`;
  let firstSession: string | undefined;
  const respond = (req: MockRequest): MockReply => {
    if (!req.isMain) return text('side');
    firstSession ??= req.sessionId;
    if (req.sessionId === firstSession) {
      return HANDOFF_ASK.test(req.lastUserText)
        ? text(handoffDoc(MARKER), usageFor(56_000))
        : text('worked', usageFor(55_000));
    }
    return text('successor here', usageFor(12_000));
  };
  const f = await startFlower({ t, respond, prompt: 'go', flowerArgs: ['--window', '100k', '--review', '0'] });
  const start2 = await f.waitForEvent('generation-start', 90_000, (e) => e.generation === 2);
  const first2 = await f.api.waitForRequest((r) => r.sessionId === start2.session_id, 60_000);

  // Generation 2 is running: scan every command line.
  const transcript1 = (f.manifest().generations[0] as { session_id: string }).session_id;
  const needles = [MARKER, 'Dead ends', f.sandbox.projectDir, `${transcript1}.jsonl`];
  const scan = commandLines();
  t.ok(
    scan.some((c) => c.line.includes(start2.session_id as string)),
    'the scan sees the successor claude itself',
  );
  for (const needle of needles) {
    t.same(
      scan.filter((c) => c.line.includes(needle)),
      [],
      `no command line holds ${needle}`,
    );
  }

  // What the successor was told, exactly: the record in notes/ is its whole first prompt.
  const record = readFileSync(join(f.workbench, 'notes', 'successor-prompt-2.md'), 'utf8');
  t.match(record, TAKING_OVER);
  t.match(record, MARKER);
  t.ok(
    first2.lastUserText.includes(record.trim()),
    'the first request holds the whole first prompt, document included',
  );
  t.match(first2.lastUserText, /Dead ends[\s\S]*find -printf was not portable/);
  const seeded = await f.waitForEvent('seed-delivered', 10_000);
  t.match(seeded, { generation: 2, via: 'hook' });
  t.equal(
    statSync(join(f.workbench, 'notes', 'successor-prompt-2.md')).mode & 0o077,
    0,
    "the record is the user's alone",
  );
});
