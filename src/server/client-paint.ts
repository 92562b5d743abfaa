// An attach client's first paint: its face (drawn here on its own terminal, when the server can open it),
// then the welcome, the screen as it is now, the latest title, status and document, then the stream.

import { encodeFrame, WIRE_VERSION, type Hello, type RunInfo, type ServerMessage } from './wire.js';
import { openClientTerminal, type ClientTerminal } from '../adapters/client-terminal.js';
import type { FastRelay } from '../adapters/fast-relay.js';
import { openTerminalFace, type TerminalFace } from './terminal-face.js';
import type { ClientLink } from './client-link.js';
import type { ClientRegistry } from './client-registry.js';
import type { ServerFace } from './server-face.js';
import type { FaceCommand } from '../runtime/face.js';
import { boundedSize } from '../core/server/client-rules.js';
import { shownChild, shownLatest } from '../core/picture/run-show.js';
import type { ClaudeKeys, KeySender } from '../runtime/claude-keys.js';

export interface PaintContext {
  serverFace: ServerFace;
  registry: ClientRegistry;
  relay: FastRelay | null;
  log: (line: string) => void;
  info: () => RunInfo;
  /** the run's one sink for keys into claude, and each client's books on its keys */
  keys: ClaudeKeys;
  senderOf: (client: ClientLink) => KeySender;
  /** a face's own command or detach, as if its client had sent it */
  command: (client: ClientLink, command: FaceCommand) => void;
  detach: (client: ClientLink) => void;
  /** "prefix s": a detach after which the client shows the chooser */
  choose?: (client: ClientLink) => void;
  /** the words that run flower-pty from the run's folder, for the commands a split view prints */
  ownCommand: () => string;
}

// A client on a terminal is drawn here when its terminal opens; else (no terminal named, or one this
// process cannot open) it gets the stream and draws its own: it is never refused for it.
async function directFace(ctx: PaintContext, client: ClientLink, hello: Hello): Promise<void> {
  if (!hello.tty || hello.watch) return;
  let terminal: ClientTerminal;
  try {
    terminal = openClientTerminal(hello.tty);
  } catch (error) {
    ctx.log(
      `drawing the client's terminal ${hello.tty} failed (${error instanceof Error ? error.message : String(error)}): it draws its own`,
    );
    return;
  }
  let face: TerminalFace;
  try {
    face = await openTerminalFace({
      terminal,
      hello,
      documentPath: hello.documentPath ?? ctx.serverFace.latest.view?.documentPath ?? null,
      keys: { sink: ctx.keys, from: ctx.senderOf(client) },
      on: {
        resized: (cols, rows) => ctx.registry.sized(client, cols, rows),
        command: (command) => ctx.command(client, command),
        detach: () => ctx.detach(client),
        ...(ctx.choose ? { choose: () => ctx.choose!(client) } : {}),
        edit: (path) => client.send({ t: 'edit', path }),
      },
      relay: ctx.relay,
      screen: ctx.serverFace.screen.emulator,
      ownCommand: ctx.ownCommand,
    });
  } catch (error) {
    terminal.close(); // a face refused (a bad $FLOWER_PTY_PREFIX): the client hears why, in one line
    throw error;
  }
  client.setFace(face);
  client.size = boundedSize(face.size().cols, face.size().rows);
}

// The run's latest state as a client's first messages, around its screen (`screen` goes in where it was null).
function latestState(serverFace: ServerFace, screen: ServerMessage | null): ServerMessage[] {
  const { latest } = serverFace;
  // an ended child is news only to a face that saw it run: one attaching now starts from a still screen
  const child = latest.child === 'started' ? shownChild(latest) : null;
  return [...(child ? [child] : []), ...(screen ? [screen] : []), ...shownLatest(latest)];
}

export async function paintClient(ctx: PaintContext, client: ClientLink, hello: Hello): Promise<void> {
  const { serverFace } = ctx;
  await directFace(ctx, client, hello);
  ctx.registry.follow(client);
  const welcome = encodeFrame({
    t: 'welcome',
    version: WIRE_VERSION,
    run: ctx.info(),
    ...(client.face ? { direct: true } : { repaint: true }),
  });
  // A face drawn from the server's one screen has claude's screen at hand already: given the rest now, its
  // first frame (a turn of the loop away, long before the repaint) is whole, where it was drawn without the
  // status, title and cursor and drawn again once they came. The repaint still follows, for its books on
  // claude's terminal modes; what is broadcast meanwhile is newer, and follows it as for any client.
  const shared = client.face?.sharesScreen ? client.face : null;
  if (shared) for (const message of latestState(serverFace, null)) shared.show(message);
  const screen = await serverFace.screen.repaint(); // frames broadcast meanwhile are held for this client
  const repainted: ServerMessage = {
    t: 'screen',
    data: screen,
    cols: serverFace.screen.cols,
    rows: serverFace.screen.rows,
  };
  client.goLive(welcome, shared ? [repainted] : latestState(serverFace, repainted));
}

// A stream client's `repaint`: the screen as it is now, in the stream's order. The client is held as at
// its first paint: the repaint covers everything written to the screen before it was asked for (xterm
// parses in order), and what is broadcast while it is taken waits, then follows it.
export async function repaintClient(serverFace: ServerFace, client: ClientLink): Promise<void> {
  client.hold();
  const screen = await serverFace.screen.repaint();
  client.goLive(null, [{ t: 'screen', data: screen, cols: serverFace.screen.cols, rows: serverFace.screen.rows }]);
}
