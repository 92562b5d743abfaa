// The handoff document: five sections (two required), the canonical text form of a section body,
// the mechanically built degraded document, and a per-section diff used to record human edits.

export type SectionKey = 'doing' | 'decided' | 'deadends' | 'next' | 'scene';

export interface SectionDef {
  key: SectionKey;
  required: boolean;
  /** The heading text rendered for this section (also accepted by the parser). */
  title: string;
  /** Every label the parser accepts, compared after normalisation (case, accents, punctuation). */
  labels: readonly string[];
  /** What belongs in the section; quoted to the model in the request for the document. */
  hint: string;
}

// Order matters: it is the order of rendering and of the request to the model.
export const SECTIONS: readonly SectionDef[] = [
  {
    key: 'doing',
    required: true,
    title: 'Doing · 现在在做',
    labels: [
      'doing',
      'currently doing',
      'now doing',
      'what i am doing',
      "what i'm doing",
      'current task',
      'in progress',
      'working on',
      '现在在做',
      '正在做',
      '在做',
      'haciendo',
      'lo que estoy haciendo',
      'estoy haciendo',
      'que se esta haciendo',
      'lo que se esta haciendo',
    ],
    hint: 'what is being done right now, concretely enough that someone can pick it up mid-step',
  },
  {
    key: 'decided',
    required: false,
    title: 'Decided · 已定的事',
    labels: [
      'decided',
      'already decided',
      'decisions',
      'settled',
      'what is settled',
      '已定的事',
      '已定',
      '已决定',
      '决定',
      'decidido',
      'ya decidido',
      'lo decidido',
      'decisiones',
    ],
    hint: 'what is settled, each with its why, so the successor does not reopen it',
  },
  {
    key: 'deadends',
    required: false,
    title: 'Dead ends · 走不通的',
    labels: [
      'dead ends',
      'dead-ends',
      'deadends',
      'dead end',
      'what failed',
      "what didn't work",
      'what did not work',
      'tried and failed',
      'failed attempts',
      '走不通的',
      '走不通',
      '死路',
      'callejones sin salida',
      'callejon sin salida',
      'lo que no funciono',
      'no funciono',
    ],
    hint: 'what was tried and failed, and why it failed',
  },
  {
    key: 'next',
    required: true,
    title: 'Next · 下一步',
    labels: [
      'next',
      'next step',
      'next steps',
      'the next step',
      "what's next",
      'what is next',
      'to do next',
      '下一步',
      '接下来',
      'siguiente',
      'siguiente paso',
      'proximo paso',
      'proximos pasos',
      'lo siguiente',
    ],
    hint: 'the very next concrete step: one action, not a plan',
  },
  {
    key: 'scene',
    required: false,
    title: 'Scene · 场景',
    labels: [
      'scene',
      'key paths',
      'key files',
      'artifacts',
      'artefacts',
      'key paths and artefacts',
      'key paths and artifacts',
      'pointers',
      '场景',
      '现场',
      'escena',
      'contexto',
    ],
    hint: 'key paths, files, commands and artefacts: pointers, not content',
  },
];

export interface HandoffDoc {
  doing: string;
  decided: string;
  deadends: string;
  next: string;
  scene: string;
}

// flower writes an empty section as this marker so a reader can tell "nothing" from "forgot".
export const EMPTY_MARKER = '(空)';
// Marks a document built mechanically because the writing turn failed ("degraded: handoff not written").
export const DEGRADED_MARKER = '[降级:交接没写成]';
// A body that is only one of these means "empty": what a person or a model writes for nothing.
export const EMPTY_ALIASES: readonly string[] = [
  EMPTY_MARKER,
  '（空）',
  '空',
  '(empty)',
  '(none)',
  '(vacío)',
  '(vacio)',
];

const PROMPT_EXCERPT_CHARS = 1_200;

export function emptyDoc(): HandoffDoc {
  return { doing: '', decided: '', deadends: '', next: '', scene: '' };
}

// Only doing and next are required: demanding the others forces the writer to invent them.
export function missing(doc: HandoffDoc): SectionKey[] {
  return SECTIONS.filter((s) => s.required && normalizeBody(doc[s.key]) === '').map((s) => s.key);
}

export function complete(doc: HandoffDoc): boolean {
  return missing(doc).length === 0;
}

export function isDegraded(doc: HandoffDoc): boolean {
  return normalizeBody(doc.doing).startsWith(DEGRADED_MARKER);
}

// Control characters other than \n and \t could repaint a terminal or hide text from a reader.
export function stripControl(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u2028\u2029]/g, '\n')
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, '');
}

// The canonical body: no control characters, no trailing spaces, no blank edges, marker-only = empty.
// parse(render(doc)) returns normalizeDoc(doc), so tests compare against this form.
export function normalizeBody(text: string): string {
  const lines = stripControl(text)
    .split('\n')
    .map((line) => line.trimEnd());
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const body = lines.join('\n');
  return EMPTY_ALIASES.includes(body.trim()) ? '' : body;
}

export function normalizeDoc(doc: HandoffDoc): HandoffDoc {
  const out = emptyDoc();
  for (const s of SECTIONS) out[s.key] = normalizeBody(doc[s.key]);
  return out;
}

// Built when the writing turn failed: degrade, never stop. Whatever parsed from a partial reply is kept.
// `failed`: the session's failures as list lines (read off its transcript): with no writer, they are its dead ends.
export function degradedDocument(input: {
  originalPrompt: string;
  reason: string;
  partial?: Partial<HandoffDoc>;
  failed?: readonly string[];
}): HandoffDoc {
  const partial = normalizeDoc({ ...emptyDoc(), ...input.partial });
  const reason = stripControl(input.reason).replace(/\s+/g, ' ').trim() || 'unknown reason';
  const excerpt = Array.from(normalizeBody(input.originalPrompt)).slice(0, PROMPT_EXCERPT_CHARS).join('');
  const joinNonEmpty = (...parts: string[]): string => parts.filter((p) => p !== '').join('\n\n');
  return {
    doing: joinNonEmpty(`${DEGRADED_MARKER} ${reason}`, partial.doing),
    decided: partial.decided,
    deadends: joinNonEmpty(
      partial.deadends,
      (input.failed ?? []).length === 0
        ? ''
        : `Failed in this session (read off its transcript by flower-pty; why is not known):\n${(input.failed ?? []).join('\n')}`,
    ),
    next:
      partial.next ||
      'Work out where the task stands before changing anything: the original prompt is ' +
        "in the scene section; the run manifest's errors and the previous session's transcript say what happened.",
    scene: joinNonEmpty(
      partial.scene,
      excerpt === '' ? '' : `Original prompt (first ${PROMPT_EXCERPT_CHARS} characters):\n${excerpt}`,
    ),
  };
}

const DIFF_MAX_LINES = 12;
const DIFF_MAX_CELLS = 250_000;

// Which sections a person changed, and a short line diff of each, to record human edits.
export function diffSections(a: HandoffDoc, b: HandoffDoc): { changed: SectionKey[]; summary: string } {
  const changed: SectionKey[] = [];
  const parts: string[] = [];
  for (const s of SECTIONS) {
    const before = normalizeBody(a[s.key]);
    const after = normalizeBody(b[s.key]);
    if (before === after) continue;
    changed.push(s.key);
    const ops = lineDiff(before === '' ? [] : before.split('\n'), after === '' ? [] : after.split('\n'));
    const shown = ops.slice(0, DIFF_MAX_LINES);
    const more = ops.length - shown.length;
    parts.push([`${s.key}:`, ...shown, ...(more > 0 ? [`  … ${more} more changed lines`] : [])].join('\n'));
  }
  return { changed, summary: parts.length === 0 ? 'no changes' : parts.join('\n') };
}

// Removed/added lines only ("- x" / "+ y"), by longest common subsequence; unchanged lines are left out.
function lineDiff(a: string[], b: string[]): string[] {
  if (a.length * b.length > DIFF_MAX_CELLS) return [...a.map((l) => `- ${l}`), ...b.map((l) => `+ ${l}`)];
  const width = b.length + 1;
  const lcs = new Array<number>((a.length + 1) * width).fill(0);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (i < a.length && (j >= b.length || (lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0))) {
      out.push(`- ${a[i]}`);
      i++;
    } else {
      out.push(`+ ${b[j]}`);
      j++;
    }
  }
  return out;
}
