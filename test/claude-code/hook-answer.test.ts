// The run's answers as the hook stdout 2.1.332 reads: the exact JSON shapes the e2e cycle relies on.
import t from 'tap';
import { hookStdout } from '../../src/claude-code/hook-answer.js';

t.test('each answer as the stdout Claude Code reads', async (t) => {
  t.equal(hookStdout({ kind: 'pass' }), '', 'nothing said changes nothing');
  t.same(JSON.parse(hookStdout({ kind: 'block', reason: 'write the document' })), {
    decision: 'block',
    reason: 'write the document',
  });
  t.same(JSON.parse(hookStdout({ kind: 'add-context', text: '# Doing\n"quoted"' })), {
    hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: '# Doing\n"quoted"' },
  });
  t.equal(
    hookStdout({ kind: 'text', text: 'flower context 12k' }),
    'flower context 12k',
    "the status line's text as it is",
  );
});
