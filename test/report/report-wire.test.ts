// A report's model as another machine printed it (report --json), read back before it is drawn here:
// the model this checkout makes reads back as itself; text that is not one is null, never drawn.
import t from 'tap';
import { readReportModel } from '../../src/core/report/report-wire.js';
import { buildReport } from '../../src/core/report/report-model.js';

const model = buildReport({
  workbench: '/w', now: '2026-12-05T00:00:00.000Z', manifest: null, manifestProblem: 'no manifest at /w/manifest.json', manifestDropped: 0,
  events: null, eventsPath: null, eventsProblem: null, documents: [], transcripts: new Map(), spilledPrompts: new Map(), documentLimit: 1024,
});

t.test('a model reads back as itself', async (t) => {
  t.same(readReportModel(JSON.stringify(model)), JSON.parse(JSON.stringify(model)));
});

t.test('anything else is null', async (t) => {
  for (const text of ['', 'not json', '[]', 'null', JSON.stringify({ ...model, version: 2 }), JSON.stringify({ ...model, generations: [1] }), JSON.stringify({ ...model, notes: [{}] }), JSON.stringify({ ...model, workbench: 7 })]) {
    t.equal(readReportModel(text), null, text.slice(0, 40));
  }
});
