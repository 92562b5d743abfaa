// The words a person types for a command flower-pty spells otherwise (`list` for `ls`, `stop` for `kill`,
// `version` for `--version`), each with what it means here. A lone one of them is not taken as a prompt:
// it would start a real, perhaps paid, session and write .flower/ where the person only asked a question.
// Far from every subcommand's name by spelling, so near-name.ts does not catch them; they are listed. The
// words after flower-pty only: the line is said with flower-pty as the person types it (own-command.ts).
// Pure data.

/** a word, and the words after flower-pty it stands for */
export const COMMAND_WORDS: Readonly<Record<string, string>> = {
  list: 'ls',
  ps: 'ls',
  runs: 'ls',
  sessions: 'ls',
  running: 'ls',
  stop: 'kill',
  end: 'kill',
  quit: 'kill',
  exit: 'kill',
  terminate: 'kill',
  rm: 'kill',
  start: '"your task"',
  run: '"your task"',
  new: '"your task"',
  resume: '--continue',
  continue: '--continue',
  restart: '--continue',
  logs: 'status',
  log: 'status',
  history: 'status',
  lineage: 'status',
  info: 'status',
  show: 'status',
  open: 'attach',
  connect: 'attach',
  watch: 'attach',
  view: 'attach',
  dashboard: 'web',
  browser: 'web',
  ui: 'web',
  serve: 'web',
  server: 'web',
  html: 'report',
  export: 'report',
  check: 'doctor',
  setup: 'doctor',
  init: 'doctor',
  config: '--help',
  version: '--version',
  usage: '--help',
};

/** the words that stand for a command that is not flower-pty's own: the whole line */
const OTHER_COMMANDS: Readonly<Record<string, string>> = {
  uninstall: 'npm uninstall -g flower-pty',
  remove: 'npm uninstall -g flower-pty',
};

/** the command line a lone word stands for (case aside), with `own` the way flower-pty is typed where the
 * person is, or null when it is no command's word */
export function commandWord(word: string, own: string): string | null {
  const lower = word.toLowerCase();
  if (Object.hasOwn(OTHER_COMMANDS, lower)) return OTHER_COMMANDS[lower]!;
  return Object.hasOwn(COMMAND_WORDS, lower) ? `${own} ${COMMAND_WORDS[lower]!}` : null;
}
