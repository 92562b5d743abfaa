// The facts a successor must have, read off a session's main thread up to a cut: the files it created or
// changed, its dead ends (the failure record's calls that failed and never worked later), the person's
// instructions, the tasks still open, and the identifiers (branches, issue and PR numbers, URLs, the last
// command that passed a test run). Each fact carries its display text and the rule a document is matched
// by (coverage-score.ts); docs/eval.md states the rules. Fed the dialect's rows (fact-row.ts) one at a
// time in bounded memory, so it runs beside the live tail and over a long transcript alike. Pure.

import { EMPTY_FAILURES, recordRun, type FailureRecord } from '../dead-ends/failure-record.js';
import { commandSegments, normaliseCommand, programWords } from '../dead-ends/command-match.js';
import { applyScopeChange, EMPTY_SCOPE, openTasks, type SessionScope } from '../document/session-scope.js';
import { isFlowerPrompt } from '../lineage/handoff-prompts.js';
import { oneLine } from '../one-line.js';
import { contentWords, isInstruction, sentences } from './content-words.js';
import type { FactRow, ListItem } from './fact-row.js';

export const CATEGORIES = ['files', 'dead_ends', 'instructions', 'tasks', 'identifiers'] as const;
export type Category = (typeof CATEGORIES)[number];

/** how a fact is looked for in a document (coverage-score.ts) */
export type FactRule =
  /** the path as a whole token, or its file name */
  | { rule: 'path'; path: string }
  /** the normalised command whole, or one of its segments of two words or more */
  | { rule: 'command'; command: string }
  /** any of these paths (as `path`) near a word of failure or with the error's own words, else the call's
   *  target, word for word */
  | { rule: 'target'; paths: string[]; input: string; error: string[] }
  /** at least WORD_SHARE of these content words */
  | { rule: 'words'; words: string[] }
  /** the text as a whole token, case and all */
  | { rule: 'literal'; text: string }
  /** the number after `#`, issue, PR or pull request, or in an issues/pull URL */
  | { rule: 'issue'; number: string };

export interface Fact {
  /** what a person is shown (one line) */
  text: string;
  match: FactRule;
}

export type SuccessorFacts = Record<Category, Fact[]>;

/** facts kept per category: the newest win (a session that edits 2000 files is scored on its last 500) */
export const MAX_FACTS = 500;
/** a longer sentence is a paste, not an instruction */
export const INSTRUCTION_CHARS = 400;
const TEXT_CHARS = 160;
const URL_CHARS = 300;

// A shell command that runs tests: in one of its segments, the program is a test runner (`npx tap x.test.ts`,
// `python -m pytest`, `uv run pytest`, `bundle exec rspec`), or a build tool's subcommand or script is a
// test (`npm test`, `cargo test`, `go test ./...`, `npm run test:unit`, `make test`). Never a word inside a
// path (`ls tests/`), a package's name (`brew install x/tap/y`), a comment, or the shell's own `test -f`.
const TEST_RUNNER =
  /^(?:jest|vitest|mocha|pytest|py\.test|tap|ava|rspec|phpunit|ctest|unittest|nosetests|tox|nox|karma|cypress)$/;
const BUILD_TOOLS = new Set([
  'npm',
  'yarn',
  'pnpm',
  'bun',
  'deno',
  'node',
  'cargo',
  'go',
  'mix',
  'make',
  'just',
  'mise',
  'task',
  'gradle',
  'gradlew',
  'mvn',
  'mvnw',
  'dotnet',
  'swift',
  'zig',
  'poetry',
  'uv',
  'hatch',
  'rake',
  'bundle',
  'composer',
  'flutter',
  'dart',
  'lein',
  'sbt',
  'playwright',
  'python',
  'python3',
]);
const RUNS_SCRIPT = new Set(['run', 'run-script', 'exec', 'x', '-m']);
const TEST_SCRIPT = /^tests?(?:$|[:_-]\w)/;
// Asked of every command that worked before the exact test: most name no runner at all.
const MAY_RUN_TESTS = /test|jest|vitest|mocha|tap|ava|rspec|phpunit|tox|nox|karma|cypress/;
function segmentRunsTests(segment: string): boolean {
  const w = programWords(segment);
  const program = w[0] ?? '';
  if (TEST_RUNNER.test(program)) return true;
  if (!BUILD_TOOLS.has(program)) return false;
  if (program === 'node') return w.includes('--test');
  let i = 1;
  while (i < w.length && w[i]!.startsWith('-') && !RUNS_SCRIPT.has(w[i]!)) i += 1;
  let sub = w[i] ?? '';
  if (RUNS_SCRIPT.has(sub)) {
    do i += 1;
    while (i < w.length && w[i]!.startsWith('-'));
    sub = w[i] ?? '';
    if (TEST_RUNNER.test(sub.split('/').at(-1) ?? '')) return true;
  }
  return TEST_SCRIPT.test(sub);
}
export function isTestCommand(command: string): boolean {
  return commandSegments(command).some(segmentRunsTests);
}

// A URL ends at a blank, a quote, a bracket, or a backslash (a `\n` escape inside a quoted string).
const URL = /\bhttps?:\/\/[^\s<>"'`)\]}|\\]+/g;
// `#N` only where a person or a command wrote it; the number after "issue", "PR" or "pull request"
// wherever; the number in an issues or pull URL.
const HASH_NUMBER = /(?<![\w&#/])#(\d{1,6})(?![\w-])/g;
const NAMED_NUMBER = /\b(?:issues?|PR|PRs|pull request)\s*#?(\d{1,6})\b/gi;
// Asked first: the pattern above, case-insensitive from every position, costs ten times as much on the
// model's text, which mostly names no issue at all.
const NAMES_A_NUMBER = /issue|PR|pull request/i;
const URL_NUMBER = /\/(?:issues|pull)\/(\d{1,6})\b/;
// A branch named for an issue: `issue-42`, `fix/gh-42-parser`, `42-parser`, `feat/123_x`.
const BRANCH_NUMBER = /(?:^|\/)(?:(?:issues?|gh|bug|fix|pr)[-_]?)?(\d{1,6})(?=[-_]|$)/i;
// `gh issue view 12`, `gh pr checkout 7`: a command about one issue or PR.
const GH_NUMBER = /\bgh\s+(?:issue|pr)\s+[a-z-]+\s+#?(\d{1,6})\b/g;
// What a command says in quotes (a commit message, a PR's title or body, an inline script) is the model's
// prose, not the person's world: numbers there are not read.
const QUOTED = /"(?:[^"\\]|\\.)*"|'[^']*'|<<[\s\S]*$/g;
const BRANCH_MADE =
  /\bgit\s+(?:checkout\s+-[bB]|switch\s+-[cC]|worktree\s+add\s(?:[^&;|]*?\s)?-[bB]|push\s+(?:-u|--set-upstream)\s+\S+)\s+([\w.][\w./-]*)/g;
// Branches every repository has: naming them tells a successor nothing.
const COMMON_BRANCHES = new Set(['HEAD', 'main', 'master']);

export interface FactCollector {
  push(row: FactRow): void;
  /** the facts as they stand now: a cut */
  facts(): SuccessorFacts;
}

// A bounded, ordered set keyed by a string: a repeat keeps its place, the oldest goes past the bound.
function keptSet<T>(): { add(key: string, value: T): void; values(): T[] } {
  const map = new Map<string, T>();
  return {
    add(key, value) {
      if (map.has(key)) return;
      map.set(key, value);
      if (map.size > MAX_FACTS) map.delete(map.keys().next().value as string);
    },
    values: () => [...map.values()],
  };
}

export interface CollectorOptions {
  /** the failure record kept already (the live run keeps one for its handoff request): read at each cut
   *  instead of a second record of the same runs */
  failures?: () => FailureRecord;
}

export function createFactCollector(opts: CollectorOptions = {}): FactCollector {
  const files = keptSet<Fact>();
  const instructions = keptSet<Fact>();
  const identifiers = keptSet<Fact>();
  let failures: FailureRecord = EMPTY_FAILURES;
  let scope: SessionScope = EMPTY_SCOPE;
  let checklist: ListItem[] = [];
  let lastTest: string | null = null;

  const issue = (n: string): void =>
    identifiers.add(`issue:${n}`, { text: `#${n}`, match: { rule: 'issue', number: n } });
  // An issue's or PR's URL is that issue or PR: one fact, found by its URL or its `#N`.
  const url = (raw: string): void => {
    const u = raw.replace(/[.,;:!?*_]+$/, '');
    const n = URL_NUMBER.exec(u);
    if (n) issue(n[1]!);
    else if (u.length <= URL_CHARS) identifiers.add(`url:${u}`, { text: u, match: { rule: 'literal', text: u } });
  };
  const branch = (name: string): void => {
    if (COMMON_BRANCHES.has(name)) return;
    identifiers.add(`branch:${name}`, { text: name, match: { rule: 'literal', text: name } });
    const n = BRANCH_NUMBER.exec(name);
    if (n) issue(n[1]!);
  };

  // Identifiers in a text. Issue and PR numbers only from the person's world: a prompt, a command, a URL,
  // a branch. The model's own lists ("Issue" or "issues" and a small number, "fixing #1") number its points.
  function identifiersIn(text: string, numbers: boolean): void {
    if (text.includes('http')) for (const m of text.matchAll(URL)) url(m[0]);
    if (!numbers) return;
    if (text.includes('#')) for (const m of text.matchAll(HASH_NUMBER)) issue(m[1]!);
    if (NAMES_A_NUMBER.test(text)) for (const m of text.matchAll(NAMED_NUMBER)) issue(m[1]!);
  }

  function commandIdentifiers(command: string): void {
    if (command.includes('http')) for (const m of command.matchAll(URL)) url(m[0]);
    const bare =
      command.includes('"') || command.includes("'") || command.includes('<<') ? command.replace(QUOTED, ' ') : command;
    identifiersIn(bare.replace(/https?:\/\/\S+/g, ' '), true);
    if (bare.includes('gh ')) for (const m of bare.matchAll(GH_NUMBER)) issue(m[1]!);
  }

  function prompt(text: string): void {
    if (isFlowerPrompt(text)) return;
    identifiersIn(text, true);
    for (const s of sentences(text)) {
      if (s.length > INSTRUCTION_CHARS || !isInstruction(s)) continue;
      const w = contentWords(s);
      if (w.length > 0)
        instructions.add(w.join(' '), { text: oneLine(s, TEXT_CHARS), match: { rule: 'words', words: w } });
    }
  }

  function run(row: Extract<FactRow, { kind: 'run' }>): void {
    const r = row.run;
    if (opts.failures === undefined) failures = recordRun(failures, r);
    for (const path of row.changed) files.add(path, { text: path, match: { rule: 'path', path } });
    if (r.command === null) return;
    commandIdentifiers(r.command);
    if (r.command.includes('git ')) for (const m of r.command.matchAll(BRANCH_MADE)) branch(m[1]!);
    if (r.ok && MAY_RUN_TESTS.test(r.command) && isTestCommand(r.command)) lastTest = normaliseCommand(r.command);
  }

  return {
    push(row) {
      switch (row.kind) {
        case 'prompt':
          return prompt(row.text);
        case 'said':
          return identifiersIn(row.text, false);
        case 'run':
          return run(row);
        case 'scope':
          scope = applyScopeChange(scope, row.change);
          return;
        case 'checklist':
          checklist = row.items;
          return;
        case 'branch':
          return branch(row.name);
        case 'summary':
          return;
      }
    },
    facts() {
      const dead = (opts.failures?.() ?? failures).failures
        .filter((f) => !f.workedLater && !f.trivial)
        .map((f): Fact => {
          if (f.command !== null)
            return { text: oneLine(f.input, TEXT_CHARS), match: { rule: 'command', command: f.command } };
          const target = f.files.length > 0 ? f.files.join(' ') : f.target;
          return {
            text: oneLine(`${f.tool} ${target}`, TEXT_CHARS),
            match: { rule: 'target', paths: f.files, input: target, error: contentWords(f.error) },
          };
        });
      const subjects = [
        ...openTasks(scope).map((t) => t.subject),
        ...checklist.filter((i) => !i.done).map((i) => i.subject),
      ];
      const tasks = keptSet<Fact>();
      for (const s of subjects) {
        const w = contentWords(s);
        tasks.add(w.join(' ') || s, {
          text: oneLine(s, TEXT_CHARS),
          match: w.length > 0 ? { rule: 'words', words: w } : { rule: 'literal', text: s },
        });
      }
      const ids = identifiers.values();
      if (lastTest !== null)
        ids.push({ text: oneLine(lastTest, TEXT_CHARS), match: { rule: 'command', command: lastTest } });
      return {
        files: files.values(),
        dead_ends: dead,
        instructions: instructions.values(),
        tasks: tasks.values(),
        identifiers: ids,
      };
    },
  };
}

/** the facts of a main thread's rows up to `opts.cut` (a count of rows; all of them when absent) */
export function successorFacts(rows: Iterable<FactRow>, opts: { cut?: number } = {}): SuccessorFacts {
  const c = createFactCollector();
  let n = 0;
  for (const row of rows) {
    if (opts.cut !== undefined && n >= opts.cut) break;
    c.push(row);
    n += 1;
  }
  return c.facts();
}
