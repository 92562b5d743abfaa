// What a project's own config file (<workbench>/config.json, normally .flower/config.json) may set.
// A cloned repository carries that file, so until the person trusts the folder on purpose (flower-pty
// trust, as direnv's allow or git's safe.directory) it may tune the run but not run a program or write
// outside the project: those settings come from the person (flags, the environment, the user's own
// config). Pure: the adapter says which paths lie inside the project and whether the file is trusted.

/** how each key a project file may hold is treated when the folder is not trusted */
export const PROJECT_KEY_RULE = {
  window: 'always',
  headroom: 'always',
  'max-generations': 'always',
  step: 'always',
  review: 'always',
  'write-timeout': 'always',
  'parked-retry': 'always',
  'coverage-check': 'always',
  plain: 'always',
  notify: 'always',
  // a path the run writes to: fine inside the project, not elsewhere
  workbench: 'inside-project',
  events: 'inside-project',
  log: 'inside-project',
  // a program the run starts
  claude: 'trusted-only',
  'notify-command': 'trusted-only',
  // the machines flower-pty connects to over ssh: the person's own config only, trusted folder or not
  hosts: 'user-only',
} as const satisfies Record<string, 'always' | 'inside-project' | 'trusted-only' | 'user-only'>;

export type ProjectKey = keyof typeof PROJECT_KEY_RULE;

export interface ProjectVerdict<V> {
  kept: Partial<V>;
  /** keys dropped, each with why, in the file's order */
  ignored: Array<{
    key: string;
    why: 'runs a program' | 'writes outside the project' | 'names machines to connect to';
  }>;
}

/**
 * The settings of an untrusted project file that apply. `inside(key)` says whether the path that key
 * names resolves (symlinks followed) inside the project folder.
 */
export function screenProjectConfig<V extends object>(
  values: V,
  trusted: boolean,
  inside: (key: string) => boolean,
): ProjectVerdict<V> {
  const kept: Record<string, unknown> = {};
  const ignored: ProjectVerdict<V>['ignored'] = [];
  for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
    const rule = (PROJECT_KEY_RULE as Record<string, string>)[key] ?? 'trusted-only';
    // a cloned repository must never choose where this person's ssh keys are offered
    if (rule === 'user-only') ignored.push({ key, why: 'names machines to connect to' });
    else if (trusted) kept[key] = value;
    else if (rule === 'trusted-only') ignored.push({ key, why: 'runs a program' });
    else if (rule === 'inside-project' && !inside(key)) ignored.push({ key, why: 'writes outside the project' });
    else kept[key] = value;
  }
  return { kept: kept as Partial<V>, ignored };
}

/** the one line a person reads when settings were ignored (null when none were) */
export function ignoredLine(file: string, ignored: ProjectVerdict<object>['ignored']): string | null {
  if (ignored.length === 0) return null;
  const userOnly = ignored.filter((i) => i.why === 'names machines to connect to').map((i) => i.key);
  const rest = ignored.filter((i) => i.why !== 'names machines to connect to');
  const keys = rest.map((i) => (i.why === 'runs a program' ? i.key : `${i.key} (outside the project)`)).join(', ');
  const lines = [
    ...(rest.length > 0
      ? [
          `${keys}: a project's own config may not run a program or write outside the project until you trust the folder; ` +
            `to use them, check the file and run flower-pty trust (or give them as flags)`,
        ]
      : []),
    ...(userOnly.length > 0
      ? [
          `${userOnly.join(', ')}: only your own config (~/.config/flower-pty/config.json) names the machines flower-pty reaches over ssh`,
        ]
      : []),
  ];
  return `ignored from ${file}: ${lines.join('; ')}`;
}
