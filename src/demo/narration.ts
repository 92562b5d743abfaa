// What the demo says about each phase, so a newcomer knows what they are watching. Pure: the
// supervisor's status view in, one short sentence out (short: it shares the status bar's line).

import type { StatusView } from '../runtime/face.js';
import { formatTokens } from '../core/meter/token-format.js';

export function narrate(view: StatusView, opts: { split: boolean }): string {
  const line = formatTokens(view.at);
  switch (view.phase) {
    case 'starting':
      return 'demo: real claude, scripted model on 127.0.0.1';
    case 'working':
    case 'near':
      if (view.generation > 1) return "demo: a NEW session continues from the document's Next";
      if (view.phase === 'near') return `demo: near the line; at ${line} it writes a handoff`;
      return `demo: a toy task with real Bash calls; watch the meter climb to ${line}`;
    case 'writing':
      return 'demo: line crossed; the session writes its handoff document';
    case 'review': {
      const how = opts.split ? 'C-] e edits it' : 'edit it from another terminal';
      if (view.held) return `demo: frozen below and held for you; ${how}, C-] p goes on`;
      return `demo: document frozen; ${how}; successor in ${view.reviewLeft ?? 0}s`;
    }
    case 'respawning':
      return 'demo: a fresh session starts from the document on disk';
    case 'stopped':
      return 'demo: finished';
  }
}
