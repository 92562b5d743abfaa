// A disk that refuses writes, on fake ports: each failing write is said at once (status and events, with
// the path, the reason and what to do), the model's document is never lost (the successor starts from the
// copy in memory, and it is written again before the successor starts), a record for the report never
// stops a run, and the exit code says when the lineage on disk is behind.
import t from 'tap';
import { createRun } from '../../src/core/run/run-state.js';
import { createManifest, startGeneration } from '../../src/core/lineage/manifest.js';
import { decide } from '../../src/core/decide/decide.js';
import {
  startWorld,
  settings,
  settle,
  response,
  prompt,
  crossAndWrite,
  COMPLETE_DOC,
  type World,
} from './fake-ports.js';

const ENOSPC = 'ENOSPC: no space left on device, write';
const DOC = '/p/.flower/notes/doc.md';

const failures = (w: World, what: string) =>
  w.events.filter((e) => e.name === 'write-failed' && e.fields.what === what);

t.test('the document cannot be written: said at once, never "written", the successor starts from memory', async (t) => {
  const w = startWorld();
  w.disk.document = ENOSPC;
  await crossAndWrite(w);
  const [failed] = failures(w, 'document');
  t.match(failed?.fields, {
    path: DOC,
    reason: ENOSPC,
    advice: /free some space/,
    cost: /copy flower-pty keeps in memory/,
  });
  const view = w.views.at(-1)!;
  t.notMatch(view.note, /handoff written/, 'the status bar never says written');
  t.match(view.note, new RegExp(`could not write the handoff document ${DOC}: ENOSPC`));
  t.match(view.attention, /disk trouble: the handoff document not written \(ENOSPC: no space left on device\)/);
  t.match(w.shown.at(-1), { path: DOC, text: /building the thing/ }, 'the pane shows the document from memory');
  t.match(w.alerts.join('\n'), /could not write a file/);
  t.match(w.events.find((e) => e.name === 'done')?.fields, { written: false, path: null });

  // The disk is still full when the review ends: one more try, then the copy in memory.
  await w.clock.advance(10_000);
  t.equal(failures(w, 'document').length, 2, 'the second try is said too');
  t.equal(w.children.length, 2, 'the successor started all the same');
  t.match(w.child().prompt, /TAKING OVER[\s\S]*building the thing/, "from the model's own document");
  t.notMatch(w.child().prompt, /saved at/, 'never told the document is saved where there is none');
});

t.test('space freed during the review: the document is written before the successor starts, and named', async (t) => {
  const w = startWorld();
  w.disk.document = ENOSPC;
  await crossAndWrite(w);
  w.disk.document = null;
  await w.clock.advance(10_000);
  t.match(w.documents.get(DOC), /building the thing/, 'on disk now');
  t.match(w.events.find((e) => e.name === 'write-recovered')?.fields, { what: 'document', path: DOC });
  t.equal(w.children.length, 2);
  t.match(w.child().prompt, new RegExp(`The document is saved at ${DOC}`));
  t.equal(w.views.at(-1)?.attention, null, 'the trouble is cleared');
});

t.test("the report's record of a first prompt cannot be written: the run goes on, and says so", async (t) => {
  const w = startWorld();
  w.disk.record = ENOSPC;
  await crossAndWrite(w);
  await w.clock.advance(10_000);
  t.equal(w.children.length, 2, 'the successor runs');
  t.notOk(w.loop.state.finished);
  t.match(failures(w, 'record')[0]?.fields, {
    path: /successor-prompt-2\.md$/,
    reason: ENOSPC,
    cost: /only the report misses it/,
  });
});

t.test(
  'the manifest cannot be written: said once per streak, and when it works again; the exit code says so',
  async (t) => {
    const w = startWorld();
    await settle();
    const sid = w.child().sessionId;
    w.disk.manifest = ENOSPC;
    w.append(sid, [prompt('go'), response(10_000, 'a')]);
    w.append(sid, [response(12_000, 'b')]);
    await settle();
    t.equal(failures(w, 'manifest').length, 1, 'once, not for every write');
    t.match(failures(w, 'manifest')[0]?.fields, { path: '/p/.flower/manifest.json', reason: ENOSPC });
    t.match(w.views.at(-1)?.attention, /disk trouble: the lineage \(manifest\.json\) not written/);
    w.disk.manifest = null;
    w.append(sid, [response(14_000, 'c')]);
    await settle();
    t.match(w.events.find((e) => e.name === 'write-recovered')?.fields, { what: 'manifest' });
    t.equal(w.views.at(-1)?.attention, null);
    w.disk.manifest = ENOSPC;
    w.command('quit');
    const result = await w.loop.done;
    t.equal(result.exitCode, 8, 'not a clean end: the lineage on disk is behind');
    t.match(result.message, /could not write the lineage \(manifest\.json\) \/p\/\.flower\/manifest\.json: ENOSPC/);
  },
);

t.test('a quit while the document is being written is recorded as stopped, not quit', async (t) => {
  const w = startWorld();
  await settle();
  const sid = w.child().sessionId;
  await w.hook('SessionStart', { session_id: sid, source: 'startup' });
  w.append(sid, [prompt('build the thing'), response(155_000, 'crossed')]);
  await w.hook('Stop', { session_id: sid, last_assistant_message: 'crossed' });
  t.equal(w.loop.state.cycle.phase, 'writing');
  w.command('quit');
  await w.loop.done;
  t.match(w.manifests.at(-1)?.generations[0], {
    end: 'stopped',
    reason: /stopped while the handoff document was being written/,
  });
});

t.test(
  '--continue from a document larger than the window: a person hears it before the successor starts',
  async (t) => {
    const s = settings();
    const manifest = startGeneration(
      createManifest({ step: 'work', cwd: '/p', window: 200_000, at: 150_000, now: '2026-01-01T00:00:00Z' }),
      { generation: 1, sessionId: 'a', now: '2026-01-01T00:00:00Z' },
    );
    const huge = COMPLETE_DOC.replace('building the thing', 'x'.repeat(2_000_000));
    let run = createRun(s, '2026-01-01T00:00:00Z', { manifest, document: huge });
    run = decide(run, { type: 'start', now: 1 }).state;
    const step = decide(run, { type: 'seed-read', now: 2, generation: 2, onDisk: huge });
    const emitted = step.effects.filter((e) => e.type === 'emit').map((e) => (e as { name: string }).name);
    t.ok(emitted.includes('document-too-large'));
    const shown = step.effects.find((e) => e.type === 'show' && e.show.t === 'message');
    const message = shown?.type === 'show' && shown.show.t === 'message' ? shown.show : undefined;
    t.match(
      message?.text,
      /the handoff document is 2\.0M characters \(about 500\.\dK tokens\), more than the successor's 200\.0K-token window can take in: trim \/p\/\.flower\/notes\/doc\.md/,
    );
    t.ok(
      step.effects.some((e) => e.type === 'spawn'),
      'the successor is started all the same',
    );
  },
);
