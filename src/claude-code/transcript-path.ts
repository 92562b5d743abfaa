// Where Claude Code 2.1.332 keeps a session's transcript: the project-directory name encoding of
// docs/claude-code.md §3 (every non-alphanumeric becomes '-', long names get a hash suffix).

const MAX_PLAIN_LENGTH = 200;

// Java-style 32-bit string hash, the one the binary uses to shorten long directory names.
function javaStringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return hash;
}

// The folder name under <configDir>/projects for a session started in `cwd` (already realpath'd).
export function projectDirName(cwd: string): string {
  const plain = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  if (plain.length <= MAX_PLAIN_LENGTH) return plain;
  return `${plain.slice(0, MAX_PLAIN_LENGTH)}-${Math.abs(javaStringHash(cwd)).toString(36)}`;
}

// The main transcript of `sessionId`; joined with '/' because the dialect is pure (no node:path).
export function transcriptPathFor(configDir: string, cwd: string, sessionId: string): string {
  const root = configDir.endsWith('/') ? configDir.slice(0, -1) : configDir;
  return `${root}/projects/${projectDirName(cwd)}/${sessionId}.jsonl`;
}

// Since about 2.1, a session's subagents write their own transcripts under `<session-id>/subagents/` beside
// the main one (all their rows `isSidechain`): never a main thread, so a walk of the projects folder skips them.
export const SUBAGENTS_DIR = 'subagents';
