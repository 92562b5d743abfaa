// The failures before the writer (a bounded list in the request) and in the document: what a document
// mentions (never by flower-pty's own facts block), and the dead ends a successor is watched for.
import t from 'tap';
import { FAILURES_REQUEST_CHARS, handoffRequest } from '../../../src/core/lineage/handoff-prompts.js';
import { mentions, NOT_IN_DOCUMENT, repeatOf, watchList } from '../../../src/core/dead-ends/dead-end-watch.js';
import { ERROR_CHARS, INPUT_CHARS, type Failure } from '../../../src/core/dead-ends/failure-record.js';
import { FACTS_HEADING } from '../../../src/core/document/scene-facts.js';
import { emptyDoc } from '../../../src/core/document/handoff-doc.js';
import type { ToolRun } from '../../../src/core/dead-ends/tool-run.js';

const failure = (command: string, over: Partial<Failure> = {}): Failure => ({
  key: `command:${command}`,
  kind: 'command',
  tool: 'Bash',
  input: command,
  command,
  target: command,
  trivial: false,
  pending: [],
  files: [],
  error: 'exit 1',
  tries: 1,
  firstAt: null,
  lastAt: null,
  workedLater: false,
  ...over,
});

t.test('the request: no list without failures; a long list stays within its stated size', async (t) => {
  const plain = handoffRequest({ used: 150_000, window: 200_000 });
  t.equal(handoffRequest({ used: 150_000, window: 200_000, failures: [] }), plain);
  const long = Array.from({ length: 15 }, (_, i) =>
    failure(`${i} ${'x'.repeat(INPUT_CHARS)}`.slice(0, INPUT_CHARS), { error: 'e'.repeat(ERROR_CHARS), tries: 20 - i }),
  );
  const request = handoffRequest({ used: 150_000, window: 200_000, failures: long });
  t.ok(
    request.length - plain.length <= FAILURES_REQUEST_CHARS + 400,
    `the list adds ${request.length - plain.length} characters`,
  );
  t.match(request, /\(and \d+ more not listed here\)$/, 'what did not fit is counted');
  t.match(request, /^- `0 x+` \(Bash\) failed 20 times/m, 'the most tried is first');
});

t.test('mentions: the dead ends, the decided section and the scene count; the facts block does not', async (t) => {
  const doc = {
    ...emptyDoc(),
    scene: `src/\n\n${FACTS_HEADING}\n- ${NOT_IN_DOCUMENT} \`make check\` (Bash) failed once`,
  };
  t.notOk(mentions(doc, failure('make check')), "flower-pty's own line is not the writer mentioning it");
  t.ok(mentions({ ...doc, decided: 'we stop running make check: too slow' }, failure('make check')));
  t.ok(
    mentions(
      { ...emptyDoc(), deadends: 'reading huge.json whole' },
      failure('', { command: null, tool: 'Read', input: '/w/data/huge.json', files: ['/w/data/huge.json'] }),
    ),
  );
  t.notOk(
    mentions({ ...emptyDoc(), doing: 'make check' }, failure('make check')),
    'the doing section is not where a dead end is accounted for',
  );
});

t.test(
  "the watch list: dead ends' spans with their lines, facts lines by their first span, listed failures",
  async (t) => {
    const text = [
      '# 交接 · work',
      '',
      '## Dead ends · 走不通的',
      '',
      '- `npm run build` needs node 22; the `--legacy-peer-deps` flag breaks the lock',
      '- `tail.ts` is fine',
      '',
      '## Scene · 场景',
      '',
      FACTS_HEADING,
      `- ${NOT_IN_DOCUMENT} \`make check\` (Bash) failed once: \`exit 2\``,
    ].join('\n');
    const watch = watchList(text, [
      failure('make check'),
      failure('git push'),
      failure('', { kind: 'reverted-edit', command: null, tool: 'Edit', input: '/w/a.ts' }),
    ]);
    t.same(
      watch.map((w) => [w.pattern, w.line]),
      [
        [{ kind: 'command', command: 'npm run build' }, 5],
        [{ kind: 'flag', flag: '--legacy-peer-deps' }, 5],
        [{ kind: 'command', command: 'make check' }, 11],
        [{ kind: 'command', command: 'git push' }, null],
      ],
    );
    const call = (command: string): ToolRun => ({
      id: 'x',
      tool: 'Bash',
      command,
      files: [],
      input: command,
      ok: true,
      error: null,
      at: null,
      edit: null,
    });
    t.equal(repeatOf(watch, call('npm install --legacy-peer-deps'))?.line, 5);
    t.equal(repeatOf(watch, call('git push 2>&1'))?.line, null);
    t.equal(repeatOf(watch, call('git push origin main')), null, 'a near miss');
    t.equal(repeatOf(watch, call('exit 2')), null, "a facts line's error is no dead end");
  },
);
