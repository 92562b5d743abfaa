// Which Claude Code release is running and what it can do: the version parser, the table of feature
// firsts found by trying the releases with the canary (scripts/canary.mjs, docs/claude-code-releases.md), the minimum flower-pty supports, and what an
// older release costs. Pure: the version text comes in from the probe (src/adapters/claude-probe.ts).

export interface Release {
  major: number;
  minor: number;
  patch: number;
  /** the version exactly as parsed, e.g. "2.1.78" */
  text: string;
}

// Each feature with the first release that has it (null: no first found, assume every supported release has it).
export const FEATURE_FIRSTS = {
  /** status line input carries context_window.context_window_size */
  contextWindowSize: '2.0.65',
  /** the DISABLE_AUTO_COMPACT environment switch */
  disableAutoCompact: '2.0.77',
  /** the Stop payload carries last_assistant_message (the document comes from it) */
  lastAssistantMessage: '2.1.47',
  /** the StopFailure hook; an older release refuses the whole settings file over it (a blocking dialog) */
  stopFailure: '2.1.78',
  /** the X-Claude-Code-Session-Id request header */
  sessionIdHeader: '2.1.86',
  /** a native executable instead of cli.js */
  nativeBinary: '2.1.113',
  /** the PermissionRequest hook: present on every release the canary ran (2.1.47 up); no first found */
  permissionRequest: null,
  /** the PreCompact hook: present on every release the canary ran (2.1.47 up); no first found */
  preCompact: null,
  /** the PostToolUseFailure hook (run instead of PostToolUse after a failed call): in the cli.js of 2.1.47,
   *  the oldest supported; no first found */
  postToolUseFailure: null,
  /** the PermissionDenied hook (auto mode's classifier refused a call): first in the cli.js of 2.1.88
   *  (not in 2.1.87's), read from the npm packages */
  permissionDenied: '2.1.88',
} as const satisfies Record<string, string | null>;

export type Feature = keyof typeof FEATURE_FIRSTS;

export const MIN_SUPPORTED = '2.1.47';

export const UPGRADE_HINT = 'npm install -g @anthropic-ai/claude-code';

// `claude --version` prints "2.1.332 (Claude Code)"; anything before or after the triple is tolerated.
export function parseRelease(text: string): Release | null {
  const match = /(?:^|[^\d.])(\d{1,4})\.(\d{1,4})\.(\d{1,6})(?![\d.])/.exec(text);
  if (!match) return null;
  const [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return { major, minor, patch, text: `${major}.${minor}.${patch}` };
}

function must(text: string): Release {
  const release = parseRelease(text);
  if (!release) throw new Error(`Expected a release like 2.1.78 in the table, got "${text}"`);
  return release;
}

export function compareReleases(a: Release, b: Release): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

// null is "unknown": an unparsable version is treated as the newest, so it gets every feature.
export function hasFeature(release: Release | null, feature: Feature): boolean {
  const first = FEATURE_FIRSTS[feature];
  if (release === null || first === null) return true;
  return compareReleases(release, must(first)) >= 0;
}

// What each missing feature costs a run, in the words `-v` prints.
const COSTS: Record<Feature, string> = {
  contextWindowSize: 'Claude Code does not report its window: give --window',
  disableAutoCompact: 'auto-compact cannot be switched off',
  lastAssistantMessage: 'the Stop hook carries no reply text: every document comes out degraded',
  stopFailure:
    'no StopFailure hook (before 2.1.78): an API error or overflow in the writing turn is seen only in the transcript, ' +
    'so a handoff may wait for --write-timeout',
  sessionIdHeader: 'requests carry no session id header (only the mock and tests notice)',
  nativeBinary: 'claude runs as node cli.js (slower start)',
  permissionRequest: 'no PermissionRequest hook: a permission wait looks like a long tool call',
  preCompact: 'no PreCompact hook: a manual /compact goes unnoticed until its transcript row',
  postToolUseFailure: 'no PostToolUseFailure hook: a turn whose tool calls fail is cut only at its end',
  permissionDenied: 'no PermissionDenied hook (before 2.1.88): a call auto mode refused is seen only in the transcript',
};

export type Support =
  | { kind: 'supported'; release: Release | null; costs: string[] }
  | { kind: 'too-old'; release: Release; message: string };

// The verdict before spawning. Older than MIN_SUPPORTED is refused with one line that says what to do.
export function supportFor(release: Release | null): Support {
  if (release !== null && compareReleases(release, must(MIN_SUPPORTED)) < 0) {
    return {
      kind: 'too-old',
      release,
      message: `Claude Code ${release.text} is too old: flower-pty needs ${MIN_SUPPORTED} or newer; upgrade with ${UPGRADE_HINT}`,
    };
  }
  const costs = (Object.keys(FEATURE_FIRSTS) as Feature[]).filter((f) => !hasFeature(release, f)).map((f) => COSTS[f]);
  return { kind: 'supported', release, costs };
}
