// The demo's scripted model and words, without claude: the climb crosses the line once, the
// document it writes is complete, the successor quotes the Next it was given (a person's edit too),
// the narration covers every phase, and the summary says what happened and where.
import t from 'tap';
import { createDemoModel, DEMO_DOCUMENT, DEMO_NEXT, DEMO_SCALE } from '../src/demo/demo-model.js';
import { narrate } from '../src/demo/narration.js';
import { narratingFace } from '../src/demo/narrating-face.js';
import { demoSummary, demoCompleted, demoQuit } from '../src/demo/demo-summary.js';
import { ownCommand } from '../src/core/options/own-command.js';
import { parseDocument } from '../src/core/document/handoff-parse.js';
import { handoffRequest, successorPrompt } from '../src/core/lineage/handoff-prompts.js';
import type { MockRequest, MockReply } from '../src/mock/messages-api.js';
import type { Face, StatusView } from '../src/runtime/face.js';

const req = (sessionId: string, lastUserText: string, isMain = true): MockRequest => ({
  index: 0,
  method: 'POST',
  path: '/v1/messages',
  headers: {},
  sessionId,
  model: 'm',
  body: {},
  messages: [],
  lastUserText,
  allText: lastUserText,
  isMain,
  receivedAt: 0,
});
const contextOf = (r: MockReply): number =>
  'usage' in r && r.usage ? r.usage.input + (r.usage.cacheRead ?? 0) + (r.usage.cacheCreation ?? 0) : -1;

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
  t.same(
    climb,
    [...climb].sort((a, b) => a - b),
    'the meter only climbs',
  );
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
  const base: StatusView = {
    phase: 'working',
    context: 0,
    window: 100_000,
    at: 50_000,
    warnAt: 30_000,
    generation: 1,
    maxGenerations: 8,
    handoff: true,
    reviewLeft: null,
    held: false,
    workbench: null,
    documentPath: null,
    note: '',
    attention: null,
  };
  const phases: StatusView['phase'][] = ['starting', 'working', 'near', 'writing', 'review', 'respawning', 'stopped'];
  const said = phases.map((phase) => narrate({ ...base, phase, reviewLeft: 7 }, { split: true }));
  t.equal(new Set(said).size, phases.length, 'each phase says something different');
  for (const s of said) t.ok(s.startsWith('demo: ') && s.length <= 72, `short: ${s}`);
  t.match(narrate({ ...base, phase: 'review', reviewLeft: 7 }, { split: true }), /C-\] e edits it; successor in 7s/);
  t.match(narrate({ ...base, phase: 'review', reviewLeft: 7 }, { split: false }), /another terminal/);
  t.match(narrate({ ...base, generation: 2 }, { split: true }), /NEW session/);
  t.equal(
    narrate({ ...base, phase: 'review', held: true }, { split: true }),
    'demo: frozen below and held for you; C-] e edits it, C-] p goes on',
    'held: the keys to edit and to go on',
  );
});

t.test('summary: complete or not, it says where everything is', async (t) => {
  const gen = (n: number, end: string) => ({
    generation: n,
    session_id: `id-${n}`,
    peak_context: 1000 * n,
    end,
    degraded: false,
  });
  const facts = {
    root: '/tmp/d',
    projectDir: '/tmp/d/project',
    workbench: '/tmp/d/project/.flower',
    documents: ['/tmp/d/project/.flower/notes/交接-work.md'],
    quotedNext: 'do it',
    seconds: 51.4,
    logs: ['/tmp/d/events.jsonl'],
    flower: 'flower-pty',
    exitCode: 0,
  };
  const ok = { ...facts, manifest: { generations: [gen(1, 'handoff'), gen(2, 'quit')] } as never };
  t.ok(demoCompleted(ok));
  t.notOk(demoQuit(ok), 'the demo ending itself is not the person quitting');
  const lines = demoSummary(ok).join('\n');
  t.match(lines, /a full handoff cycle in 51s/);
  t.match(lines, /1\. session id-1 · peak context 1000 · ended: handoff/);
  t.match(lines, /rm -rf \/tmp\/d/);
  t.match(lines, /run it for real: cd your-project && flower-pty "your task"/);
  t.same(
    demoSummary(ok).slice(-3),
    [
      '  its lineage, from here:',
      '    flower-pty status --workbench /tmp/d/project/.flower',
      '    flower-pty report --workbench /tmp/d/project/.flower',
    ],
    'it ends with the status and report commands, typed from anywhere',
  );
  t.match(
    demoSummary({ ...ok, workbench: "/tmp/it's here/.flower" }).at(-1),
    "flower-pty report --workbench '/tmp/it'\\''s here/.flower'",
    'a path a shell would split is quoted',
  );
  const checkout = demoSummary({ ...ok, flower: 'npx flower-pty' });
  t.same(
    checkout.slice(-2),
    [
      '    npx flower-pty status --workbench /tmp/d/project/.flower',
      '    npx flower-pty report --workbench /tmp/d/project/.flower',
    ],
    'from a checkout: npx flower-pty',
  );
  t.match(
    checkout.join('\n'),
    /run it for real: install it \(the README's "Use it"\), then cd your-project/,
    'a checkout is told to install it first',
  );

  const failed = { ...facts, quotedNext: null, documents: [], manifest: { generations: [gen(1, 'crash')] } as never };
  t.notOk(demoCompleted(failed));
  t.notOk(demoQuit(failed));
  t.match(
    demoSummary(failed).join('\n'),
    /stopped before a full cycle[\s\S]*documents written: none[\s\S]*what went wrong is in \/tmp\/d\/events\.jsonl\n/,
    'names only the files there are',
  );
  t.notMatch(demoSummary({ ...failed, logs: [] }).join('\n'), /what went wrong/, 'no file: none named');
  t.notOk(demoCompleted({ manifest: null, quotedNext: null }));

  const quit = { ...facts, quotedNext: null, documents: [], manifest: { generations: [gen(1, 'quit')] } as never };
  t.ok(demoQuit(quit), 'C-] q before the cycle was whole: the person quit');
  const quitLines = demoSummary(quit).join('\n');
  t.match(quitLines, /^flower-pty demo: you quit it after 51s, before a full cycle/);
  t.notMatch(quitLines, /what went wrong|stopped before/, 'no "what went wrong" for a choice');

  const atReview = { ...facts, quotedNext: null, manifest: { generations: [gen(1, 'handoff')] } as never };
  t.ok(demoQuit(atReview), 'C-] q in the held review: the first document frozen, no successor, a clean end');
  t.match(demoSummary(atReview).join('\n'), /^flower-pty demo: you quit it after 51s/);
  t.notOk(demoQuit({ ...atReview, exitCode: 1 }), 'the same lineage from a run that failed is no quit');
  t.match(demoSummary({ ...atReview, exitCode: 1 }).join('\n'), /stopped before a full cycle[\s\S]*what went wrong/);
});

t.test('how flower-pty is typed where the person is', async (t) => {
  t.equal(
    ownCommand({ onPath: true, insidePackage: true, bin: '/x/bin/flower-pty.js' }),
    'flower-pty',
    'on the PATH: the plain name',
  );
  t.equal(
    ownCommand({ onPath: false, insidePackage: true, bin: '/x/bin/flower-pty.js' }),
    'npx flower-pty',
    'in a checkout: npx finds its bin',
  );
  t.equal(
    ownCommand({ onPath: false, insidePackage: false, bin: '/my dir/bin/flower-pty.js' }),
    "node '/my dir/bin/flower-pty.js'",
    'elsewhere: the bin by its path, quoted',
  );
});

t.test('the narrating face holds the first review, once, when asked to', async (t) => {
  const commands: string[] = [];
  const inner = { onCommand: () => undefined, show: () => undefined } as unknown as Face;
  const view = (phase: StatusView['phase']): StatusView => ({
    phase,
    context: 0,
    window: 100_000,
    at: 50_000,
    warnAt: 30_000,
    generation: 1,
    maxGenerations: 8,
    handoff: true,
    reviewLeft: 8,
    held: false,
    workbench: null,
    documentPath: null,
    note: '',
    attention: null,
  });
  for (const hold of [true, false]) {
    commands.length = 0;
    const face = narratingFace(inner, () => 'demo', { plain: false, holdFirstReview: hold });
    face.onCommand((c) => commands.push(c));
    face.show({ t: 'status', view: view('working') });
    await new Promise((r) => setTimeout(r, 0));
    t.same(commands, [], 'nothing before the review');
    face.show({ t: 'status', view: view('review') });
    face.show({ t: 'status', view: view('review') });
    await new Promise((r) => setTimeout(r, 0));
    t.same(commands, hold ? ['hold'] : [], hold ? 'held once on the first review' : 'not asked: the review is timed');
    face.show({ t: 'status', view: view('respawning') });
    face.show({ t: 'status', view: { ...view('review'), generation: 2 } });
    await new Promise((r) => setTimeout(r, 0));
    t.same(commands, hold ? ['hold'] : [], 'a later review is not held');
  }
});
