// Claude's exit advice, as 2.1.332 writes it (the bytes recorded from `flower-pty demo --plain`), is
// shown in flower-pty's words; everything else in the output passes untouched.
import t from 'tap';
import { FLOWER_RESUME_COMMAND, FLOWER_RESUME_LABEL, ownResumeHint } from '../../src/claude-code/resume-hint.js';

// what claude 2.1.332 wrote as it exited at a handoff (dimmed, CR LF between the lines)
const RECORDED =
  '\u001b[2mResume this session with:\u001b[22m\r\n\u001b[2mclaude --resume a72bb6db-4d1e-4840-b70b-1088f2dc0e60\u001b[22m\r\n';

t.test("claude's resume advice becomes flower-pty's", async (t) => {
  const shown = ownResumeHint(RECORDED);
  t.equal(
    shown,
    `\u001b[2m${FLOWER_RESUME_LABEL}\u001b[22m\r\n\u001b[2m${FLOWER_RESUME_COMMAND}\u001b[22m\r\n`,
    'the styling and the line breaks kept',
  );
  t.notMatch(shown, /claude --resume|Resume this session/);
});

t.test('anything else passes untouched', async (t) => {
  for (const text of ['plain output', 'use --resume-style flags? no', 'claude --resume abc (not a session id)', ''])
    t.equal(ownResumeHint(text), text);
});
