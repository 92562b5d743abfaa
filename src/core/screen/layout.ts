// Where the panes go: side by side on a wide terminal, stacked on a narrow one, the session alone
// when the document pane is hidden or there is no room. Sizes are outer boxes (with borders).

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Layout {
  mode: 'side' | 'stacked' | 'session-only';
  session: Rect;
  document: Rect | null;
  status: Rect;
  /** the session pane inside its border: the size claude's pty gets */
  inner: { cols: number; rows: number };
}

export interface LayoutInput {
  cols: number;
  rows: number;
  documentVisible: boolean;
}

// Side by side needs room for an 80-column claude plus a readable document: 140 columns at least.
export const WIDE_AT = 140;
export const SESSION_SHARE = 0.6;
const STACKED_DOCUMENT_SHARE = 0.35;
const MIN_DOCUMENT_ROWS = 5;
const MIN_SESSION_ROWS = 6;
const BORDER = 1;

export function computeLayout(input: LayoutInput): Layout {
  const cols = Math.max(4, Math.floor(input.cols) || 0);
  const rows = Math.max(4, Math.floor(input.rows) || 0);
  const statusRows = rows >= 12 ? 2 : 1;
  const body = rows - statusRows;
  const status: Rect = { left: 0, top: body, width: cols, height: statusRows };
  const full: Rect = { left: 0, top: 0, width: cols, height: body };

  if (input.documentVisible && cols >= WIDE_AT) {
    const sessionWidth = Math.round(cols * SESSION_SHARE);
    return finish(
      'side',
      { ...full, width: sessionWidth },
      { left: sessionWidth, top: 0, width: cols - sessionWidth, height: body },
      status,
    );
  }
  const documentRows = Math.max(MIN_DOCUMENT_ROWS, Math.round(body * STACKED_DOCUMENT_SHARE));
  if (input.documentVisible && body - documentRows >= MIN_SESSION_ROWS) {
    const sessionRows = body - documentRows;
    return finish(
      'stacked',
      { ...full, height: sessionRows },
      { left: 0, top: sessionRows, width: cols, height: documentRows },
      status,
    );
  }
  return finish('session-only', full, null, status);
}

function finish(mode: Layout['mode'], session: Rect, document: Rect | null, status: Rect): Layout {
  return {
    mode,
    session,
    document,
    status,
    inner: { cols: Math.max(1, session.width - 2 * BORDER), rows: Math.max(1, session.height - 2 * BORDER) },
  };
}
