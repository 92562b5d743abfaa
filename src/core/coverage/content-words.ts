// The words a sentence is compared by: lower case, accents folded, split on anything that is not a
// letter or a digit, English and Spanish stopwords dropped. And which sentences of a person's prompt are
// instructions: those with a marker word (don't, never, always, must, we should, only, instead; no, nunca,
// siempre, debe, solo, en vez de, en lugar de). One reading of words for the facts and for the document, so a
// document that repeats a sentence in other case or without accents still holds its words. Pure.

// English and Spanish words that carry no content, the instruction markers among them: a document that
// says "avoid X" for "never X" keeps the instruction, so the marker itself is not asked for.
const STOPWORDS = new Set(
  (
    'a an the and or but if then else so as at by for from in into of on onto to with without about over under ' +
    'is are was were be been being am do does did done doing have has had having will would shall should can could ' +
    'may might must mustn need needs it its this that these those there here what which who whom whose when where why how ' +
    'i me my we us our you your he him his she her they them their not no nor don doesn didn isn aren wasn won wouldn ' +
    'shouldn can cannot couldn t s ll re ve d m just only also too very more most less all any each every some such ' +
    'never always instead ever again still yet than up down out off now please let lets make sure use using thing things ' +
    'el la los las un una unos unas y o pero si sino de del al a en con sin por para que qué como cómo cuando donde ' +
    'es son era eran ser estar esta este estos estas esto eso ese esa esos esas está están hay lo le les se su sus mi mis ' +
    'tu tus te me nos yo tú él ella ellos ellas usted ustedes muy mas más menos ya no ni nunca siempre jamás debe deben ' +
    'debes debemos deberia deberias tiene tienen tienes solo sólo solamente vez lugar en vez favor hacer haz usa usar ' +
    'todo todos toda todas otro otra otros otras algo nada cada mismo misma'
  )
    .split(' ')
    .map(fold),
);

// Lower case without accents: "Sólo" and "solo" are one word.
export function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');
}

/** the words of a text, in order, folded; stopwords kept */
export function words(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** the content words of a sentence, once each, in order */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) if (w.length > 1 && !STOPWORDS.has(w) && !out.includes(w)) out.push(w);
  return out;
}

/** every word of a document, folded, as a set to look content words up in */
export function wordSet(text: string): Set<string> {
  return new Set(words(text));
}

// A sentence is an instruction when it states a constraint: a strong marker anywhere (don't, never, always,
// must, should not, we/you should, avoid, instead; nunca, siempre, debe, en vez de, evita), or a weak one
// (no, only; solo) opening a clause, right after the word that opens it, or ending the sentence ("No
// mocks.", "Only touch src/", "Keep it short, only the summary", "Use pnpm only"). Not
// an instruction: a question, a quotation, a pasted log or code line, and a report of what happened ("It
// always fails on CI", "There are no tests", "I only changed one file"). docs/eval.md states the rule and
// its measured precision.
const STRONG =
  /(?<![\p{L}\p{N}])(?:don'?t|do not|never|always|must(?:n'?t)?|should(?:n'?t| not)|(?:we|you) should|avoid|instead|nunca|siempre|jamas|debe(?:s|n|mos|rias?)?|en vez de|en lugar de|evita)(?![\p{L}\p{N}])/u;
const WEAK = /^(?:no|only|solo|solamente)$/;
// Who a report is about: a sentence that opens with one of these tells what happened, unless it says what
// is wanted or owed (I want, we must, it should).
const REPORT_SUBJECT = /^(?:i|i'm|i've|it|it's|its|this|that|there|there's|he|she|they|yo|eso|esto|hay)$/;
const WANTED =
  /(?<![\p{L}\p{N}])(?:must|should|want|wants|need|needs|prefer|quiero|necesito|debe(?:s|n|mos|rias?)?)(?![\p{L}\p{N}])/u;

export function isInstruction(sentence: string): boolean {
  const whole = fold(sentence).replace(/[’‘]/g, "'").trim();
  if (whole.endsWith('?') || whole.startsWith('¿')) return false;
  // What the sentence quotes is someone else's words: its markers are not the person's.
  const s = whole.replace(/["“][^"”]*["”]|`[^`]*`/g, ' ');
  const words = (t: string): string[] => t.split(/[^\p{L}\p{N}']+/u).filter((x) => x !== '');
  const w = words(s);
  if (w.length === 0) return false;
  if (REPORT_SUBJECT.test(w[0]!) && !WANTED.test(s)) return false;
  if (STRONG.test(s)) return true;
  if (w.length > 2 && WEAK.test(w.at(-1)!)) return true;
  // a weak marker opening a clause, or right after the word that opens it, with what it bars after it
  // ("No mocks", "Please, no new dependencies"; not "still no", which reports)
  return s.split(/[,:;]/).some((clause) => {
    const c = words(clause);
    return (c.length > 1 && WEAK.test(c[0]!)) || (c.length > 2 && WEAK.test(c[1]!));
  });
}

// A line a person pasted rather than wrote: quoted (`>`), indented as code, or shaped like a log or a stack
// trace (a timestamp, a log level, a prompt sign, `at x (file:1:2)`), or mostly symbols.
function pasted(line: string): boolean {
  if (/^(?:>|\t| {4})/.test(line)) return true;
  const t = line.trim();
  if (
    /^(?:\$ |>>> |at \S+ \(|\[\w+\]|\d{4}-\d{2}-\d{2}|\d{2}:\d{2}:\d{2}|(?:error|warn|info|debug|trace)\b[:\]])/i.test(
      t,
    )
  )
    return true;
  const letters = (t.match(/[\p{L}\s]/gu) ?? []).length;
  return t.length >= 12 && letters / t.length < 0.7;
}

// A terminal pasted whole: a line that opens with a shell's prompt and a command (`user@host:~/x$ make`,
// `(venv) user@host:/x$ claude -c`, `PS C:\x> dir`), and the lines after it up to a blank line, which are
// that command's output: "No conversation found to continue" under `$ claude -c` is the program's words.
const SHELL_PROMPT =
  /^(?:\([\w.-]+\)\s+)?(?:[\w.-]+@[\w.-]+(?::[^\s$#]*)?\s?[$#%]|PS [A-Za-z]:\\[^>]*>|[A-Za-z]:\\[^>]*>)\s+\S/;
function dropTerminalPastes(lines: string[]): string[] {
  const out: string[] = [];
  let inPaste = false;
  for (const line of lines) {
    if (SHELL_PROMPT.test(line.trim())) inPaste = true;
    else if (line.trim() === '') inPaste = false;
    if (!inPaste) out.push(line);
  }
  return out;
}

// A prompt's sentences: split after . ! ? followed by a space, on ; and on line ends; code blocks and pasted
// lines dropped (a pasted log or diff is not an instruction). A dot inside a path or a number does not end a
// sentence.
export function sentences(text: string): string[] {
  return dropTerminalPastes(text.replace(/```[\s\S]*?(?:```|$)/g, '\n').split('\n'))
    .filter((line) => !pasted(line))
    .join('\n')
    .split(/(?<=[.!?¡¿])\s+|;\s+|\n+/)
    .map((s) => s.replace(/^[\s*#-]+|\s+$/g, ''))
    .filter((s) => s !== '');
}
