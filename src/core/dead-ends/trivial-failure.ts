// Which failed shell calls are trivial: nothing a successor must avoid. A call that only looks (a search, a
// listing, a read, a test of a path) and failed because it found nothing or the path does not exist: `grep`
// that matched nothing (exit 1, no output), `ls missing/`, `cat nope.txt`, `test -f x`. A look that failed
// another way (a bad pattern, a permission) is not trivial, nor is anything that builds, runs or changes.
// The CLI's own tools' trivial errors are the dialect's (claude-code/tool-runs.ts). Pure.

import { commandSegments, pipelineStages, programWords } from './command-match.js';

// Programs that only look at files and print what they find (or filter what another prints).
const LOOKS = new Set([
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'find',
  'fd',
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'stat',
  'file',
  'tree',
  'test',
  '[',
  '[[',
  'realpath',
  'readlink',
  'cd',
  'pwd',
  'echo',
  'sort',
  'uniq',
  'cut',
  'tr',
  'less',
]);
// What a look says when the path is not there.
const NOT_THERE = /no such file or directory|cannot access|does not exist|not a directory/i;
const EXIT_LINE = /^\s*Exit code \d+\s*$/;

/** `output`: the call's result, its `Exit code N` line included */
export function isTrivialShellFailure(command: string, output: string): boolean {
  const segments = commandSegments(command);
  if (segments.length === 0) return false;
  for (const seg of segments) {
    for (const stage of pipelineStages(seg)) {
      const program = programWords(stage)[0];
      if (program === undefined || !LOOKS.has(program)) return false;
    }
  }
  const said = output.split('\n').filter((l) => l.trim() !== '' && !EXIT_LINE.test(l));
  return said.length === 0 || said.every((l) => NOT_THERE.test(l));
}
