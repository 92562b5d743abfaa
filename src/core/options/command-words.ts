// The words a person types for a command flower-pty spells otherwise (`list` for `ls`, `stop` for `kill`,
// `version` for `--version`), each with what it means here. A lone one of them is not taken as a prompt:
// it would start a real, perhaps paid, session and write .flower/ where the person only asked a question.
// Far from every subcommand's name by spelling, so near-name.ts does not catch them; they are listed. Pure
// data.

/** a word, and the command line it stands for */
export const COMMAND_WORDS: Readonly<Record<string, string>> = {
  list: 'flower-pty ls',
  ps: 'flower-pty ls',
  runs: 'flower-pty ls',
  sessions: 'flower-pty ls',
  running: 'flower-pty ls',
  stop: 'flower-pty kill',
  end: 'flower-pty kill',
  quit: 'flower-pty kill',
  exit: 'flower-pty kill',
  terminate: 'flower-pty kill',
  rm: 'flower-pty kill',
  start: 'flower-pty "your task"',
  run: 'flower-pty "your task"',
  new: 'flower-pty "your task"',
  resume: 'flower-pty --continue',
  continue: 'flower-pty --continue',
  restart: 'flower-pty --continue',
  logs: 'flower-pty status',
  log: 'flower-pty status',
  history: 'flower-pty status',
  lineage: 'flower-pty status',
  info: 'flower-pty status',
  show: 'flower-pty status',
  open: 'flower-pty attach',
  connect: 'flower-pty attach',
  watch: 'flower-pty attach',
  view: 'flower-pty attach',
  dashboard: 'flower-pty web',
  browser: 'flower-pty web',
  ui: 'flower-pty web',
  serve: 'flower-pty web',
  server: 'flower-pty web',
  html: 'flower-pty report',
  export: 'flower-pty report',
  check: 'flower-pty doctor',
  setup: 'flower-pty doctor',
  init: 'flower-pty doctor',
  config: 'flower-pty --help',
  version: 'flower-pty --version',
  usage: 'flower-pty --help',
  uninstall: 'npm uninstall -g flower-pty',
  remove: 'npm uninstall -g flower-pty',
};

/** the command line a lone word stands for (case aside), or null when it is no command's word */
export function commandWord(word: string): string | null {
  const lower = word.toLowerCase();
  return Object.hasOwn(COMMAND_WORDS, lower) ? COMMAND_WORDS[lower]! : null;
}
