// Claude Code's permission modes, as 2.1.332 names them (sdk-tools.d.ts: `"acceptEdits" | "auto" |
// "bypassPermissions" | "default" | "dontAsk" | "plan"`), ordered by the powers each gives the session,
// and the mode the person's own launch started it in. The one place that order is written: a successor
// is started in a mode a hook or status line names only if it is the launch's mode or one of fewer
// powers, or a mode claude's own transcript shows the session in (docs/security.md). Pure.

import { BYPASS_MODE } from './successor-args.js';

const PERMISSION_MODE = '--permission-mode';
const SKIP_PERMISSIONS = '--dangerously-skip-permissions';

/** the mode a session starts in when neither the flags nor the settings name one */
export const DEFAULT_MODE = 'default';

// Powers, least first. `plan` (nothing edited, nothing run) and `dontAsk` (a question is answered no: only
// what the allow rules name runs) each give less than `default`, and neither contains the other: same rank.
const POWER: Readonly<Record<string, number>> = {
  plan: 0,
  dontAsk: 0,
  default: 1,
  acceptEdits: 2,
  auto: 3,
  [BYPASS_MODE]: 4,
};

/** every mode 2.1.332 knows */
export const PERMISSION_MODES: readonly string[] = Object.keys(POWER);

// Names 2.1.332 takes for a mode and reports as that mode (its binary: `e==="manual"?"default":e`).
const ALIASES: Readonly<Record<string, string>> = { manual: DEFAULT_MODE };

function canonical(mode: string): string {
  return Object.hasOwn(ALIASES, mode) ? ALIASES[mode]! : mode;
}

/** `mode` gives no power `than` does not: the same mode, or one of a lower rank (an unknown mode is neither) */
export function modeWithin(mode: string, than: string): boolean {
  const [m, t] = [canonical(mode), canonical(than)];
  if (m === t) return true;
  const rank = (x: string): number | null => (Object.hasOwn(POWER, x) ? POWER[x]! : null);
  const [rm, rt] = [rank(m), rank(t)];
  return rm !== null && rt !== null && rm < rt;
}

/** the modes a successor may be started in from what the launch gave: `launch` and every mode (or alias) of fewer powers */
export function modesWithin(launch: string): string[] {
  return [...new Set([launch, ...PERMISSION_MODES, ...Object.keys(ALIASES)])].filter((mode) =>
    modeWithin(mode, launch),
  );
}

/**
 * The modes a successor may be started in (core/lineage/session-place.ts's `PlaceGrant.modes`): the launch's and
 * those of fewer powers, and any mode claude's own transcript showed the session in (the person's
 * shift+tab); the bypass never unless the person's launch allowed it (their flags or settings).
 */
export function successorModes(launch: string, transcriptModes: readonly string[], bypassAllowed: boolean): string[] {
  return [...new Set([...modesWithin(launch), ...transcriptModes])].filter(
    (mode) => mode !== BYPASS_MODE || bypassAllowed,
  );
}

/**
 * The mode the person's own launch starts the session in: `--dangerously-skip-permissions`, else
 * `--permission-mode X` (the last one), else their settings' `permissions.defaultMode`, else `default`.
 */
export function launchModeOf(args: readonly string[], settingsMode: string | null): string {
  let flagMode: string | null = null;
  let skip = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith(`${PERMISSION_MODE}=`)) flagMode = arg.slice(PERMISSION_MODE.length + 1);
    else if (arg === PERMISSION_MODE && args[i + 1] !== undefined) flagMode = args[++i]!;
    else if (arg === SKIP_PERMISSIONS) skip = true;
  }
  // The skip flag is the bypass whatever mode is named beside it.
  return canonical(skip ? BYPASS_MODE : (flagMode ?? settingsMode ?? DEFAULT_MODE));
}
