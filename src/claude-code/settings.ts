// The per-run settings file (`claude --settings <file>`, docs/claude-code.md §1) for one release:
// every hook flower-pty handles that THIS release knows, all routed to the hook client, plus the status
// line. A release refuses the whole file over one hook name it does not know, with a blocking "Settings
// Error" dialog (2.1.77 over StopFailure, found by the canary: docs/claude-code-releases.md), so a hook is listed only from its first release. Pure.

import { hasFeature, type Feature, type Release } from './release.js';
import { HANDLED_HOOKS, type HookEventName } from './hooks.js';
import { HOOK_TIMEOUT_S, STATUSLINE_EVENT } from './launch.js';
import { shellQuote, shellWord } from '../core/options/shell-word.js';

// The hooks that arrived after the oldest supported release; the rest exist on every one of them.
const HOOK_FEATURE: Partial<Record<HookEventName, Feature>> = {
  StopFailure: 'stopFailure',
  PermissionRequest: 'permissionRequest',
  PreCompact: 'preCompact',
  PostToolUseFailure: 'postToolUseFailure',
  PermissionDenied: 'permissionDenied',
};

// PostCompact is read when it comes (readHook) but not registered: flower-pty decides nothing on it, and
// its first release is unknown, so listing it could cost an old release its whole settings file.
// PreToolUse is not registered either: the run decides on PermissionRequest and PostToolUse, and a hook on
// every tool call would cost one more hook-client start (node's ~50 ms) per call for nothing.
const UNREGISTERED: ReadonlySet<HookEventName> = new Set<HookEventName>(['PostCompact', 'PreToolUse']);

/** the hook events to register for `release` (null: unknown, taken as the newest) */
export function hookEventsFor(release: Release | null): HookEventName[] {
  return HANDLED_HOOKS.filter((event) => {
    if (UNREGISTERED.has(event)) return false;
    const feature = HOOK_FEATURE[event];
    return feature === undefined || hasFeature(release, feature);
  });
}

export { HOOK_TIMEOUT_S };

export interface SettingsInput {
  hookCommand: readonly string[]; // argv of the hook client: node and the absolute dist/cli/hook-client.js
  events?: readonly string[]; // default: hookEventsFor(release)
  release?: Release | null;
  statusLine: boolean; // install the status-line relay
}

// The settings object; no matcher, so every tool and every source fires.
export function buildSettings(input: SettingsInput): Record<string, unknown> {
  const base = input.hookCommand.map(shellQuote).join(' ');
  const hooks: Record<string, unknown> = {};
  for (const event of input.events ?? hookEventsFor(input.release ?? null)) {
    hooks[event] = [{ hooks: [{ type: 'command', command: `${base} ${shellWord(event)}`, timeout: HOOK_TIMEOUT_S }] }];
  }
  const settings: Record<string, unknown> = { hooks };
  if (input.statusLine)
    settings['statusLine'] = { type: 'command', command: `${base} ${STATUSLINE_EVENT}`, padding: 0 };
  return settings;
}

// Claude runs a hook command through a shell, so every argv element goes in single quotes and an event
// name stays bare (core/options/shell-word.ts).
export { shellQuote };
