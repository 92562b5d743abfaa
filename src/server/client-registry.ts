// The run server's clients: who is connected, who only watches (the web face), what every attached
// terminal is shown, and whose size claude's pty takes. The rules (core/server/client-rules.ts) decide; this keeps
// the links and carries the decisions out on the server face.

import { encodeFrame, type ServerMessage } from './wire.js';
import type { ClientLink } from './client-link.js';
import type { ServerFace } from './server-face.js';
import {
  arbitrateSize,
  boundedSize,
  emulatorAnswers,
  type SizeEvent,
  type SizeState,
} from '../core/server/client-rules.js';

export interface ClientRegistry {
  add(client: ClientLink): void;
  /** the client went away; claude keeps its size */
  remove(client: ClientLink): void;
  /** an attach client that only watches: never followed for claude's size, told when it changes */
  watch(client: ClientLink): void;
  isWatcher(client: ClientLink): boolean;
  /** every client, for the run's last words */
  all(): ClientLink[];
  /** the attached terminals (watchers not counted) */
  attached(): ClientLink[];
  watchers(): number;
  /** a face message for every attach client, framed once for all of them on the wire */
  broadcast(message: ServerMessage): void;
  /** claude's pty follows this client now (its first paint) */
  follow(client: ClientLink): void;
  /** a client's keys for claude: the size follows the typist */
  typed(client: ClientLink): void;
  /** a client's terminal changed size */
  sized(client: ClientLink, cols: number, rows: number): void;
  /** whether the server's emulator should answer claude's terminal queries now */
  emulatorAnswers(): boolean;
  /** called when a terminal is attached (its first paint) or goes: the watchers are told, so they need not ask */
  onAttachedChange(listener: () => void): void;
  /** a message for the watchers only (after their first paint) */
  toWatchers(message: ServerMessage): void;
}

export function createClientRegistry(serverFace: Pick<ServerFace, 'screen' | 'resize'>): ClientRegistry {
  const clients = new Set<ClientLink>();
  const watching = new Set<ClientLink>();
  let sizing: SizeState<ClientLink> = { latest: null };
  const attachedChanged: Array<() => void> = [];
  const isTerminal = (c: ClientLink) => c.role === 'attach' && !watching.has(c);

  const frameOnce = (message: ServerMessage): (() => Buffer) => {
    let frame: Buffer | null = null;
    return () => (frame ??= encodeFrame(message));
  };
  const attached = () => [...clients].filter(isTerminal);

  function decide(event: SizeEvent<ClientLink>): void {
    const decision = arbitrateSize(sizing, event, { cols: serverFace.screen.cols, rows: serverFace.screen.rows });
    sizing = decision.state;
    if (decision.resize === null) return;
    serverFace.resize(decision.resize.cols, decision.resize.rows);
    const size: ServerMessage = { t: 'size', cols: serverFace.screen.cols, rows: serverFace.screen.rows };
    const framed = frameOnce(size);
    for (const watcher of watching) watcher.show(size, framed);
  }

  return {
    add: (client) => void clients.add(client),
    remove(client) {
      const terminal = clients.has(client) && isTerminal(client);
      clients.delete(client);
      watching.delete(client);
      decide({ type: 'left', client });
      if (terminal) attachedChanged.forEach((l) => l());
    },
    watch: (client) => void watching.add(client),
    isWatcher: (client) => watching.has(client),
    all: () => [...clients],
    attached,
    watchers: () => watching.size,
    broadcast(message) {
      // Framed once for every client on the wire, and not at all when all of them are drawn here.
      const framed = frameOnce(message);
      for (const client of clients) if (client.role === 'attach') client.show(message, framed);
    },
    follow(client) {
      decide({ type: 'attached', client, watcher: watching.has(client), size: client.size });
      if (isTerminal(client)) attachedChanged.forEach((l) => l());
    },
    typed: (client) => decide({ type: 'typed', client, watcher: watching.has(client), size: client.size }),
    sized(client, cols, rows) {
      client.size = boundedSize(cols, rows);
      decide({ type: 'resized', client, watcher: watching.has(client), size: client.size });
    },
    onAttachedChange: (listener) => void attachedChanged.push(listener),
    toWatchers(message) {
      const framed = frameOnce(message);
      for (const watcher of watching) watcher.show(message, framed);
    },
    emulatorAnswers: () => emulatorAnswers(attached().map((c) => ({ sharesScreen: c.face?.sharesScreen ?? false }))),
  };
}
