// The chooser's keys as a pure reducer: a terminal's bytes into keys, and each key into the chooser's next
// state and what it asks the screen to do (switch to a run, end one, start one, close). ↑/↓ and j/k move,
// Enter switches to the selected run, a row's shortcut (0-9, then letters no command uses, as tmux's
// choose-tree shows them) switches at once, `/` filters on id, folder or host, `x` ends the selected run
// after a y/n, `n` asks for a new run's folder, worktree and prompt, q, Esc and Ctrl-C close.

import { pictureOrder, type RunFacts } from '../picture/run-picture.js';

export interface ChooserRun extends RunFacts {
  /** the host of the person's config it runs on; null: this machine */
  host: string | null;
}

export type ChooserKey =
  | { k: 'up' }
  | { k: 'down' }
  | { k: 'enter' }
  | { k: 'esc' }
  | { k: 'backspace' }
  | { k: 'interrupt' }
  | { k: 'char'; ch: string };

export interface NewRunForm {
  /** 0 the folder, 1 a new worktree's name (empty: none), 2 the prompt */
  field: 0 | 1 | 2;
  folder: string;
  worktree: string;
  prompt: string;
}

export interface ChooserState {
  /** the selected run's key (runKey), null when none is listed */
  selected: string | null;
  /** what the rows are narrowed to ('' none) */
  filter: string;
  mode: 'list' | 'filter' | 'confirm-end' | 'new';
  /** the run asked about with `x` */
  ending: string | null;
  form: NewRunForm | null;
}

export type ChooserAct =
  | { t: 'switch'; run: ChooserRun }
  | { t: 'end'; run: ChooserRun }
  | { t: 'new'; form: NewRunForm }
  | { t: 'close' };

/** the shortcuts, in row order: digits, then the letters no command takes (j k n q x are commands) */
export const SHORTCUTS = '0123456789abcdefghilmoprstuvwyz';

export const CHOOSER_START: ChooserState = { selected: null, filter: '', mode: 'list', ending: null, form: null };

export function runKey(r: Pick<ChooserRun, 'host' | 'id'>): string {
  return `${r.host ?? ''}:${r.id}`;
}

/** the rows the chooser lists: the one order of runs (needs first, then last activity), narrowed by the filter */
export function chooserRows(runs: readonly ChooserRun[], filter: string): ChooserRun[] {
  const f = filter.toLowerCase();
  const kept =
    f === '' ? runs : runs.filter((r) => [r.id, r.cwd, r.host ?? 'local'].some((s) => s.toLowerCase().includes(f)));
  return pictureOrder(kept);
}

/** the selection kept on its run while the rows change; the first row when its run is gone or none was chosen */
export function settle(state: ChooserState, rows: readonly ChooserRun[]): ChooserState {
  if (rows.some((r) => runKey(r) === state.selected)) return state;
  const selected = rows[0] ? runKey(rows[0]) : null;
  // a run that ended while it was asked about is asked about no more
  const ending = state.mode === 'confirm-end' ? null : state.ending;
  return { ...state, selected, ending, mode: state.mode === 'confirm-end' ? 'list' : state.mode };
}

// Bytes as keys: the arrows in both their normal and application forms, Enter, Esc alone, Backspace,
// Ctrl-C; any other escape sequence (a function key, a mouse report) is passed over whole.
export function chooserKeys(data: string): ChooserKey[] {
  const keys: ChooserKey[] = [];
  for (let i = 0; i < data.length; ) {
    const c = data[i]!;
    if (c === '\u001b') {
      const seq = /^\u001b(?:[[O][0-9;?<=>]*[\x40-\x7e])?/.exec(data.slice(i))![0];
      if (seq === '\u001b[A' || seq === '\u001bOA') keys.push({ k: 'up' });
      else if (seq === '\u001b[B' || seq === '\u001bOB') keys.push({ k: 'down' });
      else if (seq === '\u001b') keys.push({ k: 'esc' });
      i += seq.length;
      continue;
    }
    if (c === '\r' || c === '\n') keys.push({ k: 'enter' });
    else if (c === '\u007f' || c === '\b') keys.push({ k: 'backspace' });
    else if (c === '\u0003') keys.push({ k: 'interrupt' });
    else if (c >= ' ') {
      const cp = data.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      keys.push({ k: 'char', ch });
      i += ch.length;
      continue;
    }
    i++;
  }
  return keys;
}

function move(state: ChooserState, rows: readonly ChooserRun[], by: number): ChooserState {
  if (rows.length === 0) return state;
  const at = Math.max(
    0,
    rows.findIndex((r) => runKey(r) === state.selected),
  );
  const next = Math.min(rows.length - 1, Math.max(0, at + by));
  return { ...state, selected: runKey(rows[next]!) };
}

const selectedRun = (state: ChooserState, rows: readonly ChooserRun[]): ChooserRun | undefined =>
  rows.find((r) => runKey(r) === state.selected);

/** one key: the next state and what to do. `rows` are the rows as listed now (chooserRows of the state's filter) */
export function chooserStep(
  state: ChooserState,
  key: ChooserKey,
  allRuns: readonly ChooserRun[],
  cwd: string,
): { state: ChooserState; act: ChooserAct | null } {
  const rows = chooserRows(allRuns, state.filter);
  const same = { state, act: null };
  if (key.k === 'interrupt') return { state, act: { t: 'close' } };
  if (state.mode === 'confirm-end') {
    const run = allRuns.find((r) => runKey(r) === state.ending);
    const back: ChooserState = { ...state, mode: 'list', ending: null };
    if (key.k === 'char' && (key.ch === 'y' || key.ch === 'Y') && run) return { state: back, act: { t: 'end', run } };
    return { state: back, act: null };
  }
  if (state.mode === 'new') return formStep(state, key);
  if (state.mode === 'filter') {
    if (key.k === 'esc')
      return { state: settle({ ...state, mode: 'list', filter: '' }, chooserRows(allRuns, '')), act: null };
    if (key.k === 'enter') {
      // the person comes back from the run to every run, the chosen one still selected
      const run = selectedRun(state, rows);
      return run ? { state: { ...state, mode: 'list', filter: '' }, act: { t: 'switch', run } } : same;
    }
    if (key.k === 'up' || key.k === 'down') return { state: move(state, rows, key.k === 'up' ? -1 : 1), act: null };
    const filter =
      key.k === 'backspace' ? state.filter.slice(0, -1) : key.k === 'char' ? state.filter + key.ch : state.filter;
    return { state: settle({ ...state, filter }, chooserRows(allRuns, filter)), act: null };
  }
  // the list
  if (key.k === 'up') return { state: move(state, rows, -1), act: null };
  if (key.k === 'down') return { state: move(state, rows, 1), act: null };
  if (key.k === 'esc') return { state, act: { t: 'close' } };
  if (key.k === 'enter') {
    const run = selectedRun(state, rows);
    return run ? { state, act: { t: 'switch', run } } : same;
  }
  if (key.k !== 'char') return same;
  switch (key.ch) {
    case 'k':
      return { state: move(state, rows, -1), act: null };
    case 'j':
      return { state: move(state, rows, 1), act: null };
    case 'q':
      return { state, act: { t: 'close' } };
    case '/':
      return { state: { ...state, mode: 'filter' }, act: null };
    case 'x':
      return state.selected !== null && selectedRun(state, rows)
        ? { state: { ...state, mode: 'confirm-end', ending: state.selected }, act: null }
        : same;
    case 'n':
      return { state: { ...state, mode: 'new', form: { field: 0, folder: cwd, worktree: '', prompt: '' } }, act: null };
  }
  const index = SHORTCUTS.indexOf(key.ch);
  const run = index >= 0 ? rows[index] : undefined;
  return run ? { state: { ...state, selected: runKey(run) }, act: { t: 'switch', run } } : same;
}

const FIELDS = ['folder', 'worktree', 'prompt'] as const;

// The new run's questions, one line each: Enter goes to the next, and starts the run after the prompt; Esc
// leaves them. A folder left empty is refused where it is (the screen says so), not guessed.
function formStep(state: ChooserState, key: ChooserKey): { state: ChooserState; act: ChooserAct | null } {
  const form = state.form!;
  const name = FIELDS[form.field];
  if (key.k === 'esc') return { state: { ...state, mode: 'list', form: null }, act: null };
  if (key.k === 'up' || key.k === 'down') {
    const field = Math.min(2, Math.max(0, form.field + (key.k === 'up' ? -1 : 1))) as NewRunForm['field'];
    return { state: { ...state, form: { ...form, field } }, act: null };
  }
  if (key.k === 'enter') {
    if (form.field < 2)
      return { state: { ...state, form: { ...form, field: (form.field + 1) as NewRunForm['field'] } }, act: null };
    if (form.folder.trim() === '') return { state: { ...state, form: { ...form, field: 0 } }, act: null };
    return { state: { ...state, mode: 'list', form: null }, act: { t: 'new', form } };
  }
  if (key.k === 'backspace')
    return { state: { ...state, form: { ...form, [name]: form[name].slice(0, -1) } }, act: null };
  if (key.k === 'char') return { state: { ...state, form: { ...form, [name]: form[name] + key.ch } }, act: null };
  return { state, act: null };
}
