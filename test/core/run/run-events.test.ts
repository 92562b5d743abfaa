// The events file's schema: one table names every event and its fields' types; the guard every reader uses
// takes a line only when its name is known and each field has its type.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  generationOf,
  parseRunEvents,
  readRunEvent,
  RUN_EVENT_FIELDS,
  RUN_EVENT_NAMES,
} from '../../../src/core/run/run-events.js';

const ts = '2026-12-01T20:00:00.000Z';

t.test("the names are the table's keys, each once", async (t) => {
  t.same(RUN_EVENT_NAMES, Object.keys(RUN_EVENT_FIELDS));
  t.equal(new Set(RUN_EVENT_NAMES).size, RUN_EVENT_NAMES.length);
  t.ok(RUN_EVENT_NAMES.includes('generation-start') && RUN_EVENT_NAMES.includes('ended'));
});

t.test('a line whose fields have their types is an event, narrowed by its name', async (t) => {
  const e = readRunEvent({ ts, event: 'parked', generation: 2, until: null, autoContinue: true, extra: 'kept' });
  t.ok(e);
  if (e?.event === 'parked') t.equal(e.until, null, 'a nullable field may be null');
  t.ok(
    readRunEvent({ ts, event: 'parked', generation: 2, until: ts, untilMs: 5, autoContinue: false }),
    'an optional field, present',
  );
  t.ok(readRunEvent({ ts, event: 'document-problem', path: null, missing: ['Scene'] }), 'a list of strings');
  t.equal(generationOf(readRunEvent({ ts, event: 'edit-sent', generation: 3 })!), 3);
  t.equal(
    generationOf(readRunEvent({ ts, event: 'archived', path: '/a' })!),
    null,
    'not every event is about a generation',
  );
});

t.test('anything else is not', async (t) => {
  t.equal(readRunEvent(null), null);
  t.equal(readRunEvent([]), null);
  t.equal(readRunEvent({ event: 'edit-sent', generation: 1 }), null, 'no time');
  t.equal(readRunEvent({ ts, event: 'no-such-event' }), null, 'a name the table does not know');
  t.equal(readRunEvent({ ts, event: 'toString' }), null, 'nor one inherited by every object');
  t.equal(readRunEvent({ ts, event: 'edit-sent' }), null, 'a required field missing');
  t.equal(readRunEvent({ ts, event: 'edit-sent', generation: '1' }), null, 'a field of the wrong type');
  t.equal(
    readRunEvent({ ts, event: 'parked', generation: 1, until: null, untilMs: 'soon', autoContinue: true }),
    null,
    'an optional field of the wrong type',
  );
  t.equal(
    readRunEvent({ ts, event: 'document-problem', path: null, missing: ['Scene', 3] }),
    null,
    'a list with a non-string',
  );
});

t.test('a file: events kept in order, the rest counted', async (t) => {
  const text = [
    JSON.stringify({ ts, event: 'error', message: 'a' }),
    '',
    'not json',
    JSON.stringify({ ts, event: 'error' }),
    JSON.stringify({ ts, event: 'archived', path: '/p' }),
  ].join('\n');
  const { events, junk } = parseRunEvents(text);
  t.same(
    events.map((e) => e.event),
    ['error', 'archived'],
  );
  t.equal(junk, 2);
});

t.test("docs/events.md's list of events is the table's", async (t) => {
  const readme = readFileSync(
    join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'events.md'),
    'utf8',
  );
  const start = readme.indexOf('Events in the `--events` file');
  const paragraph = readme.slice(start, readme.indexOf('\n\n', start));
  const listed = new Set([...paragraph.matchAll(/`([a-z]+(?:-[a-z]+)*)`/g)].map((m) => m[1]!));
  t.same(
    RUN_EVENT_NAMES.filter((n) => !listed.has(n)),
    [],
    'every event is listed',
  );
  t.same(
    [...listed].filter(
      (n) =>
        !(RUN_EVENT_NAMES as string[]).includes(n) &&
        !['ts', 'event', 'cut', 'turn-end', 'tool-boundary', 'typed', 'ms', 'landed', 'false'].includes(n),
    ),
    [],
    'and nothing else',
  );
});
