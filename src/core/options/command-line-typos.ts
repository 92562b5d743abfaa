// A typo on the command line starts nothing. A lone word near a subcommand (`flower-pty stauts`), or one a
// person types for a command (`flower-pty list`, core/options/command-words.ts), would otherwise be the
// prompt of a real, perhaps paid, session: it is refused with the command it is near or stands for, and a
// one-word prompt that is meant goes after `--` or in quotes with a space. An unknown flag is named once, as
// typed (yargs also lists its camelCase twin), with the nearest flag of that command. What to type is said
// with `own`, flower-pty as the person types it where they are (own-command.ts). Pure.

import { COMMANDS, COMPLETION_COMMAND, type CommandName } from './command-table.js';
import { commandFlags } from './command-flags.js';
import { RUN_OPTIONS } from './options-table.js';
import { nearestName } from './near-name.js';
import { commandWord } from './command-words.js';

/** the subcommands a person may type (the hidden ones are not suggested) */
const TYPED_COMMANDS: readonly string[] = [
  ...COMMANDS.filter((row) => row.summary !== false && row.name !== '$0').map((row) => row.name),
  COMPLETION_COMMAND.name,
];

/** the refusal of a prompt that is a lone word near a subcommand or standing for one, or null when it is a prompt */
export function commandTypo(prompt: string, own: string): string | null {
  if (/\s/.test(prompt) || prompt === '') return null;
  const near = nearestName(prompt, TYPED_COMMANDS);
  const meant = commandWord(prompt, own) ?? (near !== null ? `${own} ${near}` : null);
  if (meant === null) return null;
  return `"${prompt}" is not a command: did you mean \`${meant}\`? (a one-word prompt goes after --: ${own} -- ${prompt}, or in quotes with a space)`;
}

/** the long flags `command` takes, as typed without the dashes (a boolean's --no- form too) */
export function knownFlags(command: CommandName): string[] {
  const rows =
    command === '$0'
      ? RUN_OPTIONS
      : commandFlags(command).map((flag) =>
          'from' in flag ? RUN_OPTIONS.find((row) => row.name === flag.from)! : flag,
        );
  const names = rows.flatMap((row) => (row.type === 'boolean' ? [row.name, `no-${row.name}`] : [row.name]));
  return [...names, 'help', 'version'];
}

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * The one line for yargs' "Unknown argument(s): a, aB" on `command`: each flag once, as the person typed it
 * (argv), with the nearest known flag where one is near. Null when the message is not about unknown flags.
 */
export function unknownFlagsLine(
  message: string,
  command: CommandName,
  argv: readonly string[],
  own: string,
): string | null {
  const listed = /^Unknown arguments?: (.+)$/.exec(message)?.[1];
  if (listed === undefined) return null;
  const names = listed.split(', ');
  const typedName = (name: string): boolean =>
    argv.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`) || arg === `-${name}`);
  // yargs names a mistyped --foo-bar twice (foo-bar, fooBar): one flag each, spelt as typed, else kebab-case
  const byFlag = new Map<string, string>();
  // A cluster of short flags typed as one word (-oProxyCommand=x, a value that looks like an ssh option):
  // yargs names each of its letters; it is named once, as typed.
  const clusters = argv.filter((arg) => /^-[^-]/.test(arg) && arg.length > 2);
  const clusterOf = (name: string): string | undefined =>
    name.length === 1 ? clusters.find((c) => (c.slice(1).split('=')[0] ?? '').includes(name)) : undefined;
  for (const name of names) {
    const cluster = clusterOf(name);
    if (cluster !== undefined) {
      byFlag.set(cluster, cluster);
      continue;
    }
    const key = kebab(name);
    if (!byFlag.has(key) || typedName(name)) byFlag.set(key, typedName(name) ? name : key);
  }
  const unique = [...byFlag.values()];
  const known = knownFlags(command);
  const parts = unique.map((name) => {
    if (clusters.includes(name)) return name;
    const negated = !typedName(name) && argv.some((arg) => arg === `--no-${name}` || arg.startsWith(`--no-${name}=`));
    const typed = negated ? `no-${name}` : name;
    const dashes = typed.length === 1 ? '-' : '--';
    const near = typed.length > 1 ? nearestName(kebab(typed), known) : null;
    return `${dashes}${typed}${near !== null ? ` (did you mean --${near}?)` : ''}`;
  });
  return (
    `unknown flag${parts.length > 1 ? 's' : ''} ${parts.join(', ')}${command === '$0' ? '' : ` for flower-pty ${command}`} ` +
    `(see ${own}${command === '$0' ? '' : ` ${command}`} --help)`
  );
}
