// One tool call of the main thread and its result, as the dialect reads them from the transcript
// (claude-code/tool-runs.ts): what the failure record (failure-record.ts) and the repeat watch
// (dead-end-watch.ts) are fed. The core owns the shape and knows no field name of the CLI.

export interface ToolRun {
  /** the call's id in the transcript */
  id: string;
  /** the tool's name as the CLI calls it (Bash, Edit, Read, ...) */
  tool: string;
  /** a shell call's command, whole; null for any other tool */
  command: string | null;
  /** the files the call names (a file path, a search path) */
  files: string[];
  /** the call's input as one line: the command, the file, or its JSON */
  input: string;
  /** what another tool's call was about, parsed off its input whole (a file, a search, a skill's name, a
   *  subagent's description); absent: its input */
  target?: string;
  /** a failure a successor need not be told of: a search that found nothing, a read or listing of a path
   *  that does not exist, an edit refused because the file was not read first */
  trivial?: boolean;
  ok: boolean;
  /** a failure's first telling line (an exit code with the first line after it) */
  error: string | null;
  /** when the result was written, in ms; null when the row did not say */
  at: number | null;
  /** an edit's file and the hashes of the text it replaced and the text it put in: a later edit that
   *  puts back what this one replaced undoes it */
  edit: { file: string; before: string; after: string } | null;
}
