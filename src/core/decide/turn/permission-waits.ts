// What claude waits on a person for: a tool's permission, a question it asks, or its idle prompt. Shown
// at once beside the meter and said once; cleared when the session moves on (a prompt, a tool that ran,
// a turn's end, the interrupt row a refusal leaves).

import type { HookEvent } from '../../run/hook-event.js';
import { resumeIfParked } from './parking.js';
import type { Out } from '../out.js';

export function clearWaiting(o: Out, kinds: Array<'permission' | 'question' | 'idle'>): void {
  const w = o.s.waiting;
  if (w && (kinds as string[]).includes(w.kind)) o.set({ waiting: null });
}

export function permissionAsked(o: Out, hook: Extract<HookEvent, { kind: 'permission-request' }>): void {
  if (hook.question !== null) {
    o.set({ waiting: { kind: 'question', text: hook.question } });
    o.emit('question', { generation: o.generation, tool: hook.tool, question: hook.question });
    return;
  }
  o.set({ waiting: { kind: 'permission', what: hook.summary } });
  o.emit('needs-permission', { generation: o.generation, tool: hook.tool, what: hook.summary });
}

export function notified(o: Out, hook: Extract<HookEvent, { kind: 'notification' }>, now: number): void {
  if (hook.about === 'idle' && o.s.waiting === null) {
    o.set({ waiting: { kind: 'idle' } });
    o.emit('idle', { generation: o.generation, message: hook.message });
  } else if (hook.about === 'permission' && o.s.waiting?.kind !== 'permission' && o.s.waiting?.kind !== 'question') {
    o.set({ waiting: { kind: 'permission', what: 'a tool' } });
    o.emit('needs-permission', { generation: o.generation, what: hook.message });
  } else if (hook.about === 'resumed') {
    resumeIfParked(o, now);
  }
}
