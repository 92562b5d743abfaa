// The person's bytes in the split view: decoded, the help closed by any key, mouse reports routed
// (core/screen/mouse.ts) and the rest through the keymap (core/screen/keymap.ts): claude's keys to its pane, the
// document pane's to it, and the prefix commands carried out here.

import { StringDecoder } from 'node:string_decoder';
import type { FaceCommand } from '../../runtime/face.js';
import type { SessionPane } from '../../tui/session-pane.js';
import type { DocumentPane } from '../../tui/document-pane.js';
import type { SplitFrames } from '../../tui/split-frames.js';
import type { HelpOverlay } from '../../tui/help-overlay.js';
import type { PaneLayout } from './pane-layout.js';
import type { SplitStatus } from './status-line.js';
import { extractMouse, routeMouse, type MouseEvent } from '../../core/screen/mouse.js';
import { createKeyRouter, type KeyAction, type PaneCommand } from '../../core/screen/keymap.js';
import { printable } from './prefix-key.js';

/** the bytes the person typed; `passing`: whether keys of core/screen/keymap.ts passThroughTable() would go to
 * claude as they are now (the session pane has the keys, nothing armed or half read, no help shown):
 * a native relay reading this terminal may then send them itself */
export type KeyRouting = ((chunk: Buffer) => void) & { passing(): boolean };

export function createKeyRouting(o: {
  prefix: { byte: string; label: string };
  pane: SessionPane;
  documentPane: DocumentPane;
  help: HelpOverlay;
  layout: PaneLayout;
  status: SplitStatus;
  frames: SplitFrames;
  sgrMouse: () => boolean;
  editDocument: () => Promise<void>;
  command: (command: FaceCommand) => void;
  onDetach?: () => void;
  /** "prefix s": leave this run for the chooser (absent: this terminal cannot show one) */
  onChoose?: () => void;
  /** the words that run flower-pty where the person is (SplitFaceOptions.ownCommand): the flashes name it */
  ownCommand: string;
}): KeyRouting {
  const { pane, documentPane, help, layout, status, frames } = o;
  const router = createKeyRouter(o.prefix.byte);
  const decoder = new StringDecoder('utf8');
  const label = o.prefix.label;

  function command(c: PaneCommand): void {
    switch (c) {
      case 'focus':
        layout.switchFocus();
        break;
      case 'edit':
        void o.editDocument();
        break;
      case 'force-handoff':
        o.command('force-handoff');
        status.flash('asked for a handoff now');
        break;
      case 'hold-toggle': {
        // Decide before emitting: the supervisor reports the new state back synchronously.
        const release = Boolean(status.view?.held);
        o.command(release ? 'release' : 'hold');
        status.flash(release ? 'released: the next session may start' : 'held: the next session waits for release');
        break;
      }
      case 'toggle-document':
        layout.toggleDocument();
        break;
      case 'detach':
        if (o.onDetach) o.onDetach();
        else status.flash('this run lives in this terminal: nothing to detach from');
        break;
      case 'choose':
        if (o.onChoose) o.onChoose();
        // The command first: a status line too narrow for the whole flash cuts its end, not what to type.
        else
          status.flash(
            o.onDetach
              ? `${label} d, then ${o.ownCommand} attach --choose (this attach cannot show the chooser)`
              : `${o.ownCommand} attach --choose in another terminal lists every run (this one lives here)`,
          );
        break;
      case 'quit':
        o.command('quit');
        status.flash('quitting: ending claude');
        break;
      case 'help':
        help.show();
        break;
      default:
        documentPane.scroll(c);
    }
    frames.redraw();
  }

  function act(action: KeyAction): void {
    if (action.type === 'send') pane.input(action.data);
    else if (action.type === 'command') command(action.command);
    else if (action.where === 'prefix')
      status.flash(`${label} ${printable(action.key)} does nothing: ${label} ? lists the keys`);
    else status.flash(`the document pane has the keys: Tab or Esc gives them back to claude`);
  }

  function onMouse(event: MouseEvent): void {
    const route = routeMouse(event, layout.layout, { tracking: pane.mouseTracking, sgr: o.sgrMouse() });
    if (route?.to === 'child') pane.input(route.data);
    else if (route?.to === 'document') {
      documentPane.scroll(route.scroll === 'up' ? 'scroll-up' : 'scroll-down');
      frames.redraw();
    }
  }

  const onStdin = (chunk: Buffer): void => {
    if (!frames.live) return;
    const text = decoder.write(chunk);
    if (!text) return;
    if (!help.hidden) {
      help.hide(); // any key closes the help, and is used up doing so
      frames.redraw();
      return;
    }
    // A keystroke's usual case, as the router would route it, without the routing: its echo waits on it.
    if (router.passes(text, layout.focus)) return pane.input(text);
    const { events, rest } = extractMouse(text);
    for (const event of events) onMouse(event);
    if (rest)
      for (const action of router.push(rest, { focus: layout.focus, applicationCursor: pane.applicationCursor }))
        act(action);
  };
  // A character cut between two reads waits in the decoder: the next bytes are not text of their own.
  const pending = (): boolean => ((decoder as unknown as { lastNeed?: number }).lastNeed ?? 1) > 0;
  return Object.assign(onStdin, {
    passing: () => frames.live && help.hidden && !pending() && router.passing(layout.focus),
  });
}
