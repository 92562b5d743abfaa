// A question claude asks, on one line: the first question, its choices, how many more; never a control character.
import t from 'tap';
import { questionText } from '../../src/claude-code/permission-wait.js';

const q = (question: unknown, labels: unknown[] = ['A', 'B']) => ({
  question,
  header: 'H',
  options: labels.map((label) => ({ label, description: 'd' })),
});
const cases: Array<[string, unknown, string | null]> = [
  [
    'one question, two choices',
    { questions: [q('Which parser?', ['Hand-written', 'Generated'])] },
    'Which parser? (Hand-written / Generated)',
  ],
  ['four choices', { questions: [q('Pick one?', ['a', 'b', 'c', 'd'])] }, 'Pick one? (a / b / c / d)'],
  [
    'more questions are counted',
    { questions: [q('First?'), q('Second?'), q('Third?')] },
    'First? (A / B) (+2 more questions)',
  ],
  [
    'control characters and breaks flattened',
    { questions: [q('Ship\nit?\u001b]0;x\u0007', ['y\tes', 'no'])] },
    'Ship it? ]0;x (y es / no)',
  ],
  ['no options: the question alone', { questions: [{ question: 'Why?' }] }, 'Why?'],
  ['no question at all', { questions: [] }, null],
  ['not an input', 'questions', null],
  ['blank question', { questions: [q('   ')] }, null],
];
for (const [name, input, want] of cases) t.equal(questionText(input), want, name);
t.test('a runaway question is cut short', async (t) => {
  const text = questionText({ questions: [q('x'.repeat(5_000), ['y'.repeat(500), 'z'])] }) ?? '';
  t.ok(text.length < 400, `${text.length} chars`);
  t.match(text, /…/);
});
