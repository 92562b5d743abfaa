// What every reducer writes into: the run as it becomes, and the effects in the order they are asked
// for. A small builder so each reducer reads as a list of what happens.

import { notifyEventOf } from '../run/notify-policy.js';
import type { Manifest } from '../lineage/manifest.js';
import type { RunEventName, RunEventFields, RunEventOf } from '../run/run-events.js';
import {
  currentGeneration,
  type GenerationFacts,
  type HandoffCycle,
  type RunEffect,
  type RunEmit,
  type RunState,
} from '../run/run-state.js';

export interface Decision {
  state: RunState;
  effects: RunEffect[];
}

export const iso = (now: number): string => new Date(now).toISOString();

export class Out {
  effects: RunEffect[] = [];
  constructor(public s: RunState) {}
  set(patch: Partial<RunState>): void {
    this.s = { ...this.s, ...patch };
  }
  cycle(patch: Partial<HandoffCycle>): void {
    this.s = { ...this.s, cycle: { ...this.s.cycle, ...patch } };
  }
  gen(patch: Partial<GenerationFacts>): void {
    if (this.s.gen) this.s = { ...this.s, gen: { ...this.s.gen, ...patch } };
  }
  do(effect: RunEffect): void {
    this.effects.push(effect);
  }
  emit<K extends RunEventName>(name: K, fields: RunEventFields<K>): void {
    // One name K, so one member of each union: TypeScript cannot see through the generic.
    this.do({ type: 'emit', name, fields } as RunEmit);
    const tell = notifyEventOf({ event: name, ...fields } as RunEventOf);
    if (tell) this.do({ type: 'tell-person', event: tell });
  }
  manifest(next: Manifest, flush = false): void {
    this.set({ manifest: next });
    this.do({ type: 'save-manifest', manifest: next, flush });
  }
  alert(title: string, body: string): void {
    this.do({ type: 'alert', title, body });
  }
  /** the generation the run is in: the current one, or the last the lineage recorded before it starts */
  get generation(): number {
    return currentGeneration(this.s);
  }
}

/** a reducer run on its own, for tests and for the router: the run and an event in, the decision out */
export function reduce<E>(state: RunState, event: E, reducer: (o: Out, event: E) => void): Decision {
  const o = new Out(state);
  reducer(o, event);
  return { state: o.s, effects: o.effects };
}
