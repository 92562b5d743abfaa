// End to end, REAL claude against the mock API: the first session writes a file, crosses the line, and its
// scripted document leaves that file out. flower-pty scores it at the freeze, types ONE amendment request that
// names the file, the scripted model answers with the amended document, and that one is frozen; both scores
// are in the events file, and the review shows the frozen one's.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { text, usageFor, type MockRequest, type MockReply } from '../../src/mock/messages-api.js';
import { startFlower, HANDOFF_ASK } from '../helpers/flower-run.js';

const FILE = 'parser-h38.ts';
const doc = (scene: string) =>
  [
    '## Doing',
    'Writing the parser.',
    '## Decided',
    'Plain TypeScript.',
    '## Dead ends',
    'none',
    '## Next',
    'Test the parser.',
    '## Scene',
    scene,
  ].join('\n');
const FIRST = doc('the project root');
const AMENDED = doc(`the project root; ${FILE} holds the parser`);
const AMEND_ASK = /flower-pty: your handoff document leaves things out\. Read the file (\S+) now/;

t.test('a document that leaves out a file the session wrote is amended once, and the amended one frozen', async (t) => {
  let firstSession: string | undefined;
  let step = 0;
  let cwd = '';
  const respond = (req: MockRequest): MockReply => {
    if (!req.isMain) return text('side');
    firstSession ??= req.sessionId;
    if (req.sessionId !== firstSession) return text('successor stops here', usageFor(12_000));
    if (AMEND_ASK.test(req.lastUserText)) return text(AMENDED, usageFor(58_000));
    if (HANDOFF_ASK.test(req.lastUserText)) return text(FIRST, usageFor(57_000));
    return step++ === 0
      ? {
          kind: 'tool',
          name: 'Write',
          input: { file_path: join(cwd, FILE), content: 'export const parse = (s: string) => s;\n' },
          usage: usageFor(20_000),
        }
      : text('the parser is written', usageFor(55_000));
  };
  const f = await startFlower({
    t,
    respond,
    prompt: 'write the parser',
    flowerArgs: ['--window', '100k', '--review', '1', '--write-timeout', '120'],
    prepare: (s) => (cwd = s.projectDir),
  });

  const first = await f.waitForEvent('coverage', 120_000, (e) => e.document === 'first');
  t.match(first, { generation: 1, files_found: 0, files_total: 1, below: ['files'], threshold: 0.5 });
  t.match(first.missing, [new RegExp(`^files: .*${FILE.replace('.', '\\.')}$`)], 'the file it wrote is missing');

  const asked = await f.waitForEvent('amendment', 30_000);
  t.match(asked, { generation: 1, below: ['files'], items: 1, ms: 60_000 });
  const request = await f.api.waitForRequest((r) => r.isMain && AMEND_ASK.test(r.lastUserText), 60_000);
  const requestFile = AMEND_ASK.exec(request.lastUserText)![1]!;
  t.match(
    readFileSync(requestFile, 'utf8'),
    new RegExp(`- ".*${FILE.replace('.', '\\.')}"`),
    'the request names the file, quoted',
  );

  const amended = await f.waitForEvent('coverage', 60_000, (e) => e.document === 'amended');
  t.match(amended, { generation: 1, files_found: 1, files_total: 1, below: [] });
  await f.waitForEvent('done', 60_000);
  t.match(readFileSync(f.documentPath, 'utf8'), `${FILE} holds the parser`, 'the amended document is the frozen one');
  t.equal(f.api.requests.filter((r) => r.isMain && AMEND_ASK.test(r.lastUserText)).length, 1, 'asked once');
  const events = readFileSync(f.eventsPath, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { event: string });
  t.same(
    events.filter((e) => ['coverage', 'amendment', 'coverage-skipped', 'done'].includes(e.event)).map((e) => e.event),
    ['coverage', 'amendment', 'coverage', 'done'],
  );
});
