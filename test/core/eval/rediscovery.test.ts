// The seeded successor's rediscovery cost, Handoff Debt's way: tool calls and input tokens up to its first
// change to a file, and the files it read again that its document named; from Claude Code's rows.
import t from 'tap';
import { rediscoveryOf, type SuccessorStep } from '../../../src/core/eval/rediscovery.js';
import { successorSteps } from '../../../src/claude-code/successor-steps.js';
import { namesPath } from '../../../src/core/coverage/coverage-score.js';

const response = (id: string, tokens: number, calls: Array<[string, object]>, extra: object = {}): string =>
  JSON.stringify({
    type: 'assistant',
    ...extra,
    message: {
      id,
      role: 'assistant',
      usage: { input_tokens: tokens, cache_creation_input_tokens: 10, cache_read_input_tokens: 100 },
      content: calls.map(([name, input], i) => ({ type: 'tool_use', id: `${id}-${i}`, name, input })),
    },
  });

t.test('counted up to the first change; a response split over rows counted once; subagents left out', async (t) => {
  const doc = 'Next: finish src/lexer.ts; the grammar is in grammar.peg.';
  const transcript = [
    response('m1', 1000, [
      ['Read', { file_path: '/w/src/lexer.ts' }],
      ['Grep', { pattern: 'x' }],
    ]),
    response('m1', 1000, []), // the same response, another content row
    response('s1', 99_999, [['Read', { file_path: '/w/grammar.peg' }]], { isSidechain: true }),
    response('m2', 2000, [
      ['Read', { file_path: '/w/src/lexer.ts' }],
      ['Read', { file_path: '/w/README.md' }],
    ]),
    response('m3', 3000, [['Edit', { file_path: '/w/src/lexer.ts' }]]),
    response('m4', 4000, [['Read', { file_path: '/w/grammar.peg' }]]),
  ].join('\n');
  const r = rediscoveryOf(successorSteps(transcript), (p) => namesPath(doc, p));
  t.same(r, { calls: 4, tokens: 1110 + 2110 + 3110, reread: ['/w/src/lexer.ts'], changed: true });
});

t.test('no change at all: everything it did, and said so', async (t) => {
  const steps: SuccessorStep[] = [
    { kind: 'request', id: 'a', tokens: 5 },
    { kind: 'call', tool: 'Read', read: 'x.ts', changes: false },
  ];
  t.same(
    rediscoveryOf(steps, () => false),
    { calls: 1, tokens: 5, reread: [], changed: false },
  );
  t.same(
    rediscoveryOf([], () => true),
    { calls: 0, tokens: 0, reread: [], changed: false },
  );
});
