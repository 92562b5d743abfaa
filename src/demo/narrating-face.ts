// A Face decorator for the demo: puts the narration into the status note (the split view's status
// bar; in --plain, the terminal title, the only place flower-pty may write while claude runs), holds the
// first review for a person watching (the document is what the demo is for: a timed review went by before a
// newcomer found its pane), and lets the demo quit the run through the supervisor's own command path.

import type { Face, FaceCommand, StatusView } from '../runtime/face.js';

export interface NarratingFace extends Face {
  /** ask the supervisor to end the run cleanly, as the quit key would */
  quit(): void;
}

export function narratingFace(
  inner: Face,
  narrate: (view: StatusView) => string,
  opts: { plain: boolean; holdFirstReview?: boolean },
): NarratingFace {
  let command: ((c: FaceCommand) => void) | null = null;
  let holdAsked = !(opts.holdFirstReview ?? false);
  let narration = '';
  let childTitle = '';
  const showTitle = () => inner.show({ t: 'title', title: narration ? `${narration} · ${childTitle}` : childTitle });
  function statusSaid(view: StatusView): void {
    if (!holdAsked && view.phase === 'review') {
      holdAsked = true;
      // after this status is drawn: the hold goes through the supervisor's own command path, as C-] p
      queueMicrotask(() => command?.('hold'));
    }
    const said = narrate(view);
    inner.show({ t: 'status', view: { ...view, note: said } });
    if (opts.plain && said !== narration) {
      narration = said;
      showTitle();
    }
  }
  function titleSaid(title: string): void {
    childTitle = title;
    if (opts.plain) showTitle();
    else inner.show({ t: 'title', title });
  }
  // Explicit delegation, not a spread: a face may keep its methods on a prototype.
  return {
    size: () => inner.size(),
    onInput: (listener) => inner.onInput(listener),
    onResize: (listener) => inner.onResize(listener),
    childOutput: (data) => inner.childOutput(data),
    restore: () => inner.restore(),
    onCommand(listener) {
      command = listener;
      inner.onCommand(listener);
    },
    show(show) {
      if (show.t === 'status') return statusSaid(show.view);
      if (show.t === 'title') return titleSaid(show.title);
      inner.show(show);
    },
    quit() {
      command?.('quit');
    },
  };
}
