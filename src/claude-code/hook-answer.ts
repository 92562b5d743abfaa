// The run's answer to a hook call (core's HookAnswer) as the stdout Claude Code reads from a command
// hook. Seen on 2.1.332 (docs/claude-code.md, hooks): an empty stdout changes nothing; a JSON
// `{ decision: "block", reason }` on Stop, PostToolUse or PreCompact keeps claude going (or stops the
// compaction) and shows it `reason`; UserPromptSubmit's `hookSpecificOutput.additionalContext` is added
// to the prompt as context; the status line prints its stdout as it is. Pure.

import type { HookAnswer } from '../core/run/hook-event.js';

export function hookStdout(answer: HookAnswer): string {
  switch (answer.kind) {
    case 'pass':
      return '';
    case 'block':
      return JSON.stringify({ decision: 'block', reason: answer.reason });
    case 'add-context':
      return JSON.stringify({
        hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: answer.text },
      });
    case 'text':
      return answer.text;
  }
}
