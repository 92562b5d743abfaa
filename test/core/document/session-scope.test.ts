// The session's own state as a value: folded from changes, shown as one-line facts, told to the successor.
import t from 'tap';
import {
  applyScopeChanges,
  EMPTY_SCOPE,
  isEmptyScope,
  rearmInstructions,
  scopeFactLines,
  type ScopeChange,
} from '../../../src/core/document/session-scope.js';
import { renderSceneFacts, FACTS_HEADING } from '../../../src/core/document/scene-facts.js';
import { seedSuccessor, documentToFreeze } from '../../../src/core/lineage/handoff-lineage.js';
import { renderDocument } from '../../../src/core/document/handoff-render.js';

const hostile = 'check\nthe build\u001b[2J\u0007 "now"';
const changes: ScopeChange[] = [
  { kind: 'task-created', id: '1', subject: `fix ${hostile}`, description: 'd', activeForm: null },
  { kind: 'wakeup-set', prompt: hostile, delaySeconds: 90 },
  { kind: 'cron-created', cron: { id: 'c1', cron: '*/5 * * * *', schedule: null, prompt: hostile, recurring: false } },
  { kind: 'goal-set', condition: hostile },
  { kind: 'shell-started', shell: { id: 'b1', command: `sleep 9\n${hostile}`, description: null } },
];
const scope = applyScopeChanges(EMPTY_SCOPE, changes);

t.test('every fact is one line, control characters gone, quotes kept apart', async (t) => {
  const lines = scopeFactLines(scope);
  t.equal(lines.length, 5);
  for (const line of lines) {
    t.notMatch(line, /[\u0000-\u001f\u007f]/, line);
    t.match(line, /check the build \[2J +'now'"/, 'the prompt, flattened, its quotes turned');
  }
  const block = renderSceneFacts({ transcriptPath: null, git: null, scope });
  t.equal(block.split('\n')[0], FACTS_HEADING);
  t.equal(block.split('\n').length, 6, 'the heading and one line per fact');
  t.equal(renderSceneFacts({ transcriptPath: null, git: null, scope: EMPTY_SCOPE }), '', 'nothing to say: no block');
});

t.test('what changes what: updates, deletions, firings, endings', async (t) => {
  const cases: Array<[string, ScopeChange[], (s: typeof scope) => unknown, unknown]> = [
    [
      'an update of an unknown task is ignored',
      [{ kind: 'task-updated', id: '9', status: 'completed' }],
      (s) => s.tasks.length,
      1,
    ],
    [
      'a completed task is no longer open',
      [{ kind: 'task-updated', id: '1', status: 'completed' }],
      (s) => scopeFactLines(s).some((l) => l.includes('task #1')),
      false,
    ],
    ['a deleted task is gone', [{ kind: 'task-updated', id: '1', status: 'deleted' }], (s) => s.tasks.length, 0],
    [
      'blockers add up once',
      [
        { kind: 'task-updated', id: '1', addBlockedBy: ['2'] },
        { kind: 'task-updated', id: '1', addBlockedBy: ['2', '3'] },
      ],
      (s) => s.tasks[0]?.blockedBy,
      ['2', '3'],
    ],
    ['a one-shot cron that fired is gone', [{ kind: 'cron-fired', id: 'c1' }], (s) => s.crons.length, 0],
    [
      'a recurring cron that fired stays',
      [
        { kind: 'cron-created', cron: { id: 'c1', cron: '* * * * *', schedule: null, prompt: 'p', recurring: true } },
        { kind: 'cron-fired', id: 'c1' },
      ],
      (s) => s.crons.length,
      1,
    ],
    ['a wake-up cleared', [{ kind: 'wakeup-cleared' }], (s) => s.wakeup, null],
    ['a goal cleared', [{ kind: 'goal-cleared' }], (s) => s.goal, null],
    ['a shell that ended', [{ kind: 'background-ended', id: 'b1' }], (s) => s.shells.length, 0],
  ];
  for (const [name, more, pick, want] of cases) t.same(pick(applyScopeChanges(scope, more)), want, name);
});

t.test("the successor's instructions: what to re-arm, what ended; none for an empty scope", async (t) => {
  t.equal(rearmInstructions(EMPTY_SCOPE), null);
  t.ok(
    isEmptyScope(
      applyScopeChanges(EMPTY_SCOPE, [
        { kind: 'task-created', id: '1', subject: 's', description: '', activeForm: null },
        { kind: 'task-updated', id: '1', status: 'completed' },
      ]),
    ),
    'only completed tasks: nothing to carry',
  );
  const text = rearmInstructions(scope) ?? '';
  t.match(text, /Set the goal again with the condition "check the build \[2J +'now'"/);
  t.match(
    text,
    /Schedule the \/loop wake-up again with exactly the prompt "check the build \[2J +'now'" and a delay of 90 seconds/,
  );
  t.match(text, /session cron \*\/5 \* \* \* \*, once, prompt/);
  t.match(text, /cannot be carried over[^\n]*\n {2}- background shell "sleep 9 check the build/);
  t.notMatch(text, /[\u0000-\u0009\u000b-\u001f]/, 'no control characters but line breaks');
});

t.test('through the lineage: frozen into the facts, re-armed in the seed', async (t) => {
  const doc = renderDocument({ doing: 'x', decided: '', deadends: '', next: 'y', scene: 'src/' }, { step: 'work' });
  const frozen = documentToFreeze({
    text: doc,
    degraded: false,
    seededText: null,
    originalPrompt: 'P',
    step: 'work',
    facts: { transcriptPath: '/t.jsonl', git: null, scope },
  });
  t.match(frozen.doc.scene, /\n- pending \/loop wake-up in 90 s/);
  const seed = seedSuccessor({
    onDisk: frozen.text,
    kept: null,
    frozen,
    path: '/w/doc.md',
    originalPrompt: 'P',
    step: 'work',
    carried: scope,
  });
  t.match(seed.prompt, /Before you go on with the work/);
  t.match(seed.prompt, /pending \/loop wake-up in 90 s/, 'and the facts are in the document it carries');
  t.notMatch(
    seedSuccessor({ onDisk: frozen.text, kept: null, frozen, path: '/w/doc.md', originalPrompt: 'P', step: 'work' })
      .prompt,
    /Before you go on/,
    'nothing carried: no instructions',
  );
});
