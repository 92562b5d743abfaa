// `flower-pty doctor`'s judgement: the facts commands/doctor.ts gathered about this machine's claude, in,
// one OK / WARN / FAIL line each with what to do, out. Pure, so every verdict is tested without a machine.
import { hasFeature, supportFor, MIN_SUPPORTED, UPGRADE_HINT, type Release } from './release.js';
import { hookEventsFor } from './settings.js';

export type Level = 'OK' | 'WARN' | 'FAIL';

export interface DoctorLine {
  level: Level;
  topic: string;
  text: string;
}

export interface DoctorFacts {
  claude: { path: string } | { error: string };
  /** what `claude --version` printed, when claude was found */
  version: { release: Release | null; printed: string } | null;
  login: {
    apiKeyEnv: boolean; // ANTHROPIC_API_KEY
    authTokenEnv: boolean; // ANTHROPIC_AUTH_TOKEN
    oauthTokenEnv: boolean; // CLAUDE_CODE_OAUTH_TOKEN
    credentialsFile: boolean; // <config>/.credentials.json
    oauthAccount: boolean; // the global config records a logged-in account
    apiKeyHelper: boolean; // a settings file names an apiKeyHelper
  };
  configDir: { path: string; exists: boolean; writable: boolean; parentWritable: boolean };
  hookClient: { path: string; exists: boolean };
  /** the settings file that sets disableAllHooks: true, if any */
  hooksDisabledIn: string | null;
  /** CLAUDE_CODE_CHILD_SESSION in flower-pty's own environment (it runs inside a Claude Code session) */
  childSessionMarker: boolean;
}

export function doctorLines(f: DoctorFacts): DoctorLine[] {
  const lines: DoctorLine[] = [];
  const add = (level: Level, topic: string, text: string) => lines.push({ level, topic, text });

  if ('error' in f.claude) {
    add('FAIL', 'claude', f.claude.error);
  } else {
    const release = f.version?.release ?? null;
    const support = supportFor(release);
    if (support.kind === 'too-old') add('FAIL', 'claude', `${f.claude.path}: ${support.message}`);
    else if (release === null)
      add(
        'WARN',
        'claude',
        `${f.claude.path}: release unknown (claude --version printed ${JSON.stringify((f.version?.printed ?? '').slice(0, 60))}); ` +
          `flower-pty will take it as the newest`,
      );
    else if (support.costs.length > 0)
      add(
        'WARN',
        'claude',
        `${f.claude.path}: ${release.text}, supported with less: ${support.costs.join('; ')}; upgrade with ${UPGRADE_HINT}`,
      );
    else add('OK', 'claude', `${f.claude.path}: ${release.text} (supported: ${MIN_SUPPORTED} or newer)`);
  }

  const l = f.login;
  const how = [
    l.apiKeyEnv && 'ANTHROPIC_API_KEY',
    l.authTokenEnv && 'ANTHROPIC_AUTH_TOKEN',
    l.oauthTokenEnv && 'CLAUDE_CODE_OAUTH_TOKEN',
    l.credentialsFile && 'stored credentials',
    l.oauthAccount && 'a logged-in account',
    l.apiKeyHelper && 'an apiKeyHelper',
  ].filter((s): s is string => typeof s === 'string');
  if (how.length > 0) add('OK', 'login', how.join(', '));
  // The macOS keychain cannot be read from here: no login found is a warning, not a failure.
  else
    add(
      'WARN',
      'login',
      'no API key, token or stored login found: run claude once and /login, or set ANTHROPIC_API_KEY (a macOS keychain login is not visible here)',
    );

  const c = f.configDir;
  if (c.exists && c.writable) add('OK', 'config', `${c.path} is writable`);
  else if (c.exists)
    add(
      'FAIL',
      'config',
      `${c.path} is not writable: claude cannot save sessions there; fix its owner or permissions, or set CLAUDE_CONFIG_DIR`,
    );
  else if (c.parentWritable) add('OK', 'config', `${c.path} will be created by claude`);
  else
    add('FAIL', 'config', `${c.path} does not exist and cannot be created: set CLAUDE_CONFIG_DIR to a writable folder`);

  if (!f.hookClient.exists)
    add(
      'FAIL',
      'hooks',
      `the hook client ${f.hookClient.path} is missing: run npm run build (a checkout) or reinstall flower-pty`,
    );
  else if (f.hooksDisabledIn !== null)
    add(
      'FAIL',
      'hooks',
      `${f.hooksDisabledIn} sets disableAllHooks: flower-pty cannot ask for the handoff document; remove that setting`,
    );
  else
    add(
      'OK',
      'hooks',
      `the settings for this release register ${hookEventsFor(f.version?.release ?? null).join(', ')}`,
    );

  if (f.childSessionMarker)
    add(
      'OK',
      'transcript',
      'running inside a Claude Code session: flower-pty removes the inherited CLAUDE_CODE_CHILD_SESSION marker, so its claude still writes a transcript',
    );
  else add('OK', 'transcript', 'no inherited CLAUDE_CODE_CHILD_SESSION marker: claude writes its transcript');

  const release = f.version?.release ?? null;
  if ('error' in f.claude) return lines; // nothing more to say about a claude that is not there
  if (hasFeature(release, 'disableAutoCompact'))
    add('OK', 'auto-compact', 'DISABLE_AUTO_COMPACT is supported: the handoff replaces auto-compact');
  else add('FAIL', 'auto-compact', `DISABLE_AUTO_COMPACT needs 2.0.77 or newer: upgrade with ${UPGRADE_HINT}`);
  return lines;
}
