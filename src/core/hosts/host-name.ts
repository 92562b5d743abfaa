// Which machines a command reaches over ssh: a host's name (anything ssh accepts: `box`, `me@box`, an alias
// of ~/.ssh/config), refused before ssh sees it when it could be read as one of ssh's own options or split
// into several words; and `HOST:ID`, a run on another machine. Pure.

import { terminalText } from '../terminal-text.js';

/** a run id's shape (the socket file's name, src/server/socket-dir.ts) */
export const RUN_ID_RE = /^[a-z0-9]{1,32}$/;

/** what is wrong with a host's name, or null when ssh may be handed it */
export function hostNameProblem(name: string): string | null {
  if (name === '') return 'a host needs a name (user@box, or an alias from ~/.ssh/config)';
  // `-oProxyCommand=...` would be an option of ssh's, running a program of the name's choosing
  if (name.startsWith('-'))
    return `host "${terminalText(name)}" starts with "-", which ssh would read as an option: give the machine's name or an alias from ~/.ssh/config`;
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(name))
    return `host "${terminalText(name)}" holds a space or a control character: give the machine's name or an alias from ~/.ssh/config`;
  return null;
}

export type HostTarget = { host: string; id: string };

/**
 * `HOST:ID` split at its last colon (a run id has none; an address may), or null when the text names no
 * host (a local id). A target with a bad host or id is a problem in one line.
 */
export function parseHostTarget(text: string): HostTarget | { problem: string } | null {
  const colon = text.lastIndexOf(':');
  if (colon < 0) return null;
  const host = text.slice(0, colon);
  const id = text.slice(colon + 1);
  const problem = hostNameProblem(host);
  if (problem !== null) return { problem };
  if (!RUN_ID_RE.test(id))
    return {
      problem: `"${terminalText(text)}": after the host comes a run id (lowercase letters and digits, as flower-pty ls --host ${terminalText(host)} prints it)`,
    };
  return { host, id };
}

/** the hosts a command asks: the ones named, else (`all`) every configured one; each name once, in order */
export function chooseHosts(
  named: readonly string[],
  configured: readonly string[],
  all: boolean,
): { hosts: string[] } | { problem: string } {
  const wanted = all ? [...configured, ...named] : [...named];
  for (const name of wanted) {
    const problem = hostNameProblem(name);
    if (problem !== null) return { problem };
  }
  if (all && wanted.length === 0)
    return {
      problem:
        'no hosts are configured: add "hosts": ["box", "me@build"] to ~/.config/flower-pty/config.json, or name one with --host',
    };
  return { hosts: [...new Set(wanted)] };
}
