// The probes a seeded session answers in `eval fork`: questions whose answers are keyed from the transcript's
// facts at the cut (successor-facts.ts), never written by a model, and scored by the scorer's own rules
// (coverage-score.ts): recall (which files the work changed), artifact (which command failed), continuation
// (the next step, against the open tasks), constraints (the person's own instructions). Pure.

import { scoreDocument } from '../coverage/coverage-score.js';
import { CATEGORIES, type Category, type Fact, type SuccessorFacts } from '../coverage/successor-facts.js';

export type ProbeKind = 'recall' | 'artifact' | 'continuation' | 'constraints';
export const PROBE_KINDS: readonly ProbeKind[] = ['recall', 'artifact', 'continuation', 'constraints'];

export interface Probe {
  kind: ProbeKind;
  question: string;
  /** the category whose rule matches an answer against the keys */
  category: Category;
  /** the facts an answer is keyed to */
  keys: Fact[];
  /** how many keys an answer must carry to pass */
  need: number;
}

/** keys per probe at most: a question asks for what a successor needs first, not the whole record */
export const PROBE_KEYS = 10;

const PROBES: ReadonlyArray<{ kind: ProbeKind; category: Category; question: string; share: number }> = [
  {
    kind: 'recall',
    category: 'files',
    share: 0.5,
    question: 'Which files has this work created or changed so far? List their paths.',
  },
  {
    kind: 'artifact',
    category: 'dead_ends',
    share: 0,
    question:
      'Which command or tool call failed in this work and did not work later, and why? Give the command exactly.',
  },
  {
    kind: 'continuation',
    category: 'tasks',
    share: 0,
    question: 'What is the next step of this work? Name the task still open that you would do next.',
  },
  {
    kind: 'constraints',
    category: 'instructions',
    share: 0.5,
    question: 'What has the person told you always, never or only to do in this work? Quote their instructions.',
  },
];

/** the probes the facts at a cut support: one per kind with facts to key it */
export function probesOf(facts: SuccessorFacts): Probe[] {
  return PROBES.flatMap((p) => {
    const keys = facts[p.category].slice(-PROBE_KEYS);
    if (keys.length === 0) return [];
    return [
      {
        kind: p.kind,
        question: p.question,
        category: p.category,
        keys,
        need: Math.max(1, Math.ceil(keys.length * p.share)),
      },
    ];
  });
}

/** the text that asks a seeded session every probe at once, each answer under its number */
export function probePrompt(document: string, probes: readonly Probe[]): string {
  const questions = probes.map((p, i) => `${i + 1}. ${p.question}`).join('\n');
  return `You are taking over a piece of work from a previous session. Everything you know of it is the document below. Do not use any tool; answer from the document alone. If the document does not say, answer "unknown".

<document>
${document}
</document>

Answer each question on its own numbered line, "1." to "${probes.length}.", in this order:
${questions}`;
}

/** the answers of a reply, by question number (1-based); a question with no numbered line has '' */
export function splitAnswers(reply: string, count: number): string[] {
  const answers: string[] = Array.from({ length: count }, () => '');
  let current = -1;
  for (const line of reply.split('\n')) {
    const m = /^\s*(?:\*\*)?(\d{1,2})[.):](?:\*\*)?\s*(.*)$/.exec(line);
    const n = m ? Number(m[1]) - 1 : -1;
    if (m && n >= 0 && n < count) {
      current = n;
      answers[n] = m[2] ?? '';
    } else if (current >= 0) {
      answers[current] += `\n${line}`;
    }
  }
  return answers;
}

/** whether `answer` passes `probe`: it carries at least `need` of its keys, by the category's rule */
export function probePasses(probe: Probe, answer: string): boolean {
  const facts = Object.fromEntries(
    CATEGORIES.map((c) => [c, c === probe.category ? probe.keys : []]),
  ) as unknown as SuccessorFacts;
  return scoreDocument(facts, answer)[probe.category].found >= probe.need;
}
