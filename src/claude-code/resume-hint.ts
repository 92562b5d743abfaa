// Claude Code's last words when it exits: "Resume this session with:" and "claude --resume <session id>"
// (seen on 2.1.332, docs/claude-code.md §13). Under flower-pty that advice is wrong: a handed-off
// session is continued by its successor, and a stopped lineage by `flower-pty --continue`. So the lines are
// replaced, in the output every face and page draws, by flower-pty's own word. Pure.

const RESUME_LABEL = 'Resume this session with:';
const RESUME_COMMAND = /claude --resume [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

export const FLOWER_RESUME_LABEL = 'flower-pty carries the work on:';
export const FLOWER_RESUME_COMMAND = 'its successor, or flower-pty --continue';

/** claude's output with its resume advice in flower-pty's words (anything else untouched) */
export function ownResumeHint(data: string): string {
  if (!data.includes('--resume') && !data.includes(RESUME_LABEL)) return data;
  return data.split(RESUME_LABEL).join(FLOWER_RESUME_LABEL).replace(RESUME_COMMAND, FLOWER_RESUME_COMMAND);
}
