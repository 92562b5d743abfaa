// What the demo says about each phase, so a newcomer knows what they are watching. Pure: the
// supervisor's status view in, one short sentence out.

import type { StatusView } from '../hosts/host.js';
import { formatTokens } from '../core/handoff-prompts.js';

export function narrate(view: StatusView, opts: { split: boolean }): string {
  const line = formatTokens(view.at);
  switch (view.phase) {
    case 'starting':
      return 'demo: starting the real Claude Code against a scripted model on 127.0.0.1 (no account, no network)';
    case 'working':
    case 'near':
      if (view.generation > 1) return 'demo: a NEW session started from the document and continues its Next; the demo ends after its first turn';
      if (view.phase === 'near') return `demo: past the "near" mark; at ${line} flower-pty cuts at the next boundary and asks for a handoff`;
      return `demo: the scripted model works a toy task with real Bash calls; watch the context meter climb to ${line}`;
    case 'writing':
      return 'demo: the line was crossed; the same session is writing its five-section handoff document';
    case 'review': {
      const how = opts.split ? 'press C-] e to edit it' : 'edit the file from another terminal';
      if (view.held) return `demo: document frozen; review held (${how}, C-] p releases)`;
      return `demo: document frozen to disk; ${how}: the successor starts from it in ${view.reviewLeft ?? 0}s`;
    }
    case 'respawning':
      return 'demo: the old session is ended; a fresh one starts, seeded with the document as it is on disk';
    case 'stopped':
      return 'demo: finished';
  }
}
