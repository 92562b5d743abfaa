// The demo's scripted model and words, without claude: the climb crosses the line once, the
// document it writes is complete, the successor quotes the Next it was given (a person's edit too),
// the narration covers every phase, and the summary says what happened and where.
import t from 'tap';
import { createDemoModel, DEMO_DOCUMENT, DEMO_NEXT, DEMO_SCALE } from '../src/demo/demo-model.js';
import { narrate } from '../src/demo/narration.js';
import { demoSummary, demoCompleted } from '../src/demo/demo-summary.js';
import { parseDocument } from '../src/core/document/handoff-parse.js';
import { handoffRequest, successorPrompt } from '../src/core/lineage/handoff-prompts.js';
import type { MockRequest, MockReply } from '../src/mock/messages-api.js';
import type { StatusView } from '../src/runtime/face.js';

const req = (sessionId: string, lastUserText: string, isMain = true): MockRequest => ({
  index: 0, method: 'POST', path: '/v1/messages', headers: {}, sessionId, model: 'm', body: {}, messages: [],
  lastUserText, allText: lastUserText, isMain, receivedAt: 0,
});
const contextOf = (r: MockReply): number => ('usage' in r && r.usage ? r.usage.input + (r.usage.cacheRead ?? 0) + (r.usage.cacheCreation ?? 0) : -1);

t.test('generation 1 climbs past the line with real Bash calls; the document is complete', async (t) => {
  const model = createDemoModel({ paceMs: 0 });
  const at = DEMO_SCALE.window - DEMO_SCALE.headroom;
  const climb: number[] = [];
  for (let i = 0; i < 5; i++) {
    const reply = await model.respond(req('s1', i === 0 ? 'flower-pty demo task' : 'tool result'));
    t.equal(reply.kind, 'tool', `step ${i} is a tool call`);
    if (reply.kind === 'tool') t.equal(reply.name, 'Bash');
    climb.push(contextOf(reply));
  }
  t.same(climb, [...climb].sort((a, b) => a - b), 'the meter only climbs');
  t.equal(climb.filter((c) => c >= at).length, 1, 'the line is crossed exactly once, on the last call');
  t.match(await model.respond(req('side', 'title please', false)), { kind: 'text' }, 'side calls get a short text');
  const doc = await model.respond(req('s1', handoffRequest({ used: 54_000, window: 100_000 })));
  t.match(doc, { kind: 'text', text: DEMO_DOCUMENT });
  t.same(parseDocument(DEMO_DOCUMENT).missing, []);
});

t.test("the successor quotes the Next it was given, a person's edit included, then finishes", async (t) => {
  const model = createDemoModel({ paceMs: 0 });
  await model.respond(req('s1', 'start'));
  const edited = { ...parseDocument(DEMO_DOCUMENT).doc, next: 'Count toy/poem.txt again, then stop.' };
  const first = await model.respond(req('s2', successorPrompt(edited, { degraded: false })));
  t.match(first, { kind: 'tool', text: /Its Next says: "Count toy\/poem\.txt again, then stop\."/ });
  t.equal(model.quotedNext(), 'Count toy/poem.txt again, then stop.');
  let done = false;
  void model.successorDone.then(() => (done = true));
  await model.respond(req('s2', 'tool result'));
  await Promise.resolve();
  t.ok(done, "successorDone resolves with the last reply of the successor's first turn");
  const plain = createDemoModel({ paceMs: 0 });
  await plain.respond(req('a', 'start'));
  await plain.respond(req('b', successorPrompt(parseDocument(DEMO_DOCUMENT).doc, { degraded: false })));
  t.equal(plain.quotedNext(), DEMO_NEXT);
});

t.test('narration: one short sentence for every phase', async (t) => {
  const base: StatusView = { phase: 'working', context: 0, window: 100_000, at: 50_000, warnAt: 30_000, generation: 1, maxGenerations: 8, handoff: true, reviewLeft: null, held: false, workbench: null, documentPath: null, note: '', attention: null };
  const phases: StatusView['phase'][] = ['starting', 'working', 'near', 'writing', 'review', 'respawning', 'stopped'];
  const said = phases.map((phase) => narrate({ ...base, phase, reviewLeft: 7 }, { split: true }));
  t.equal(new Set(said).size, phases.length, 'each phase says something different');
  for (const s of said) t.ok(s.startsWith('demo: ') && s.length <= 72, `short: ${s}`);
  t.match(narrate({ ...base, phase: 'review', reviewLeft: 7 }, { split: true }), /C-\] e edits it; successor in 7s/);
  t.match(narrate({ ...base, phase: 'review', reviewLeft: 7 }, { split: false }), /another terminal/);
  t.match(narrate({ ...base, generation: 2 }, { split: true }), /NEW session/);
});

t.test('summary: complete or not, it says where everything is', async (t) => {
  const gen = (n: number, end: string) => ({ generation: n, session_id: `id-${n}`, peak_context: 1000 * n, end, degraded: false });
  const facts = { root: '/tmp/d', projectDir: '/tmp/d/project', workbench: '/tmp/d/project/.flower', documents: ['/tmp/d/project/.flower/notes/交接-work.md'], quotedNext: 'do it', seconds: 51.4 };
  const ok = { ...facts, manifest: { generations: [gen(1, 'handoff'), gen(2, 'quit')] } as never };
  t.ok(demoCompleted(ok));
  const lines = demoSummary(ok).join('\n');
  t.match(lines, /a full handoff cycle in 51s/);
  t.match(lines, /1\. session id-1 · peak context 1000 · ended: handoff/);
  t.match(lines, /rm -rf \/tmp\/d/);
  t.same(demoSummary(ok).slice(-3), ['  its lineage, from here:', '    flower-pty status --workbench /tmp/d/project/.flower', '    flower-pty report --workbench /tmp/d/project/.flower'], 'it ends with the status and report commands, typed from anywhere');
  t.match(demoSummary({ ...ok, workbench: "/tmp/it's here/.flower" }).at(-1), "flower-pty report --workbench '/tmp/it'\\''s here/.flower'", 'a path a shell would split is quoted');
  const short = { ...facts, quotedNext: null, documents: [], manifest: { generations: [gen(1, 'quit')] } as never };
  t.notOk(demoCompleted(short));
  t.match(demoSummary(short).join('\n'), /stopped before a full cycle[\s\S]*documents written: none[\s\S]*events\.jsonl and \/tmp\/d\/flower\.log/);
  t.notOk(demoCompleted({ manifest: null, quotedNext: null }));
});
