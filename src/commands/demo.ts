// `flower-pty demo`: the whole cycle in about a minute with no account and no network. The REAL
// claude runs under the normal supervisor against the built-in scripted model on 127.0.0.1, in a
// throwaway project and CLAUDE_CONFIG_DIR/HOME under the temp folder, never the user's ~/.claude.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT, FlowerError } from '../errors.js';
import { resolveClaude } from '../adapters/claude-binary.js';
import { readManifest } from '../adapters/manifest-store.js';
import { openNotesStore } from '../adapters/notes-store.js';
import { openLog } from '../adapters/log-file.js';
import { startMockApi } from '../mock/messages-api.js';
import { createClaudeSandbox, resolveRepoClaude, PINNED_CLAUDE_VERSION } from '../mock/claude-sandbox.js';
import { createDemoModel, DEMO_PROMPT, DEMO_SCALE } from '../demo/demo-model.js';
import { narrate } from '../demo/narration.js';
import { narratingFace, type NarratingFace } from '../demo/narrating-face.js';
import { demoCompleted, demoSummary } from '../demo/demo-summary.js';
import { superviseInTerminal } from './run.js';
import { signalExitCode } from '../core/exit-code.js';
import { EDIT_QUIET_MS } from '../core/options-table.js';

export interface DemoOptions {
  plain: boolean;
  keepGoing: boolean;
  claude: string | undefined;
  /** seconds the frozen document waits for an edit */
  review: number;
  out: (line: string) => void;
}

export const DEMO_CLAUDE_HELP =
  `run \`npm install\` in the flower-pty repo (it brings the pinned @anthropic-ai/claude-code ${PINNED_CLAUDE_VERSION}), ` +
  'or `npm install -g @anthropic-ai/claude-code`, or pass --claude <path>';

// --claude and FLOWER_PTY_CLAUDE win; then the repo's pinned devDependency (the version the
// sandbox is seeded for, so no first-run dialog); then PATH.
export function resolveDemoClaude(flag: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string {
  if (flag !== undefined || env.FLOWER_PTY_CLAUDE) return resolveClaude({ ...(flag !== undefined ? { flag } : {}), env, cwd });
  try {
    return resolveRepoClaude();
  } catch {
    // not a repo checkout (a global install): fall through to PATH
  }
  try {
    return resolveClaude({ env, cwd });
  } catch {
    throw new FlowerError(`the demo needs Claude Code and found none: ${DEMO_CLAUDE_HELP}`, EXIT.claudeMissing);
  }
}

function documentsUnder(notesDir: string, current: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.md') && path !== current) found.push(path);
    }
  };
  walk(notesDir);
  return existsSync(current) ? [current, ...found] : found;
}

export async function runDemo(o: DemoOptions): Promise<number> {
  const claude = resolveDemoClaude(o.claude, process.env, process.cwd());
  const started = Date.now();
  const root = await mkdtemp(join(tmpdir(), 'flower-pty-demo-'));
  const model = createDemoModel();
  const api = await startMockApi({ respond: model.respond });
  const plain = o.plain || !process.stdout.isTTY;
  let face: NarratingFace | null = null;
  let timer: NodeJS.Timeout | null = null;
  const log = openLog(join(root, 'flower.log'));
  try {
    const sandbox = await createClaudeSandbox({ root, baseUrl: api.url });
    const workbench = join(sandbox.projectDir, '.flower');
    const notes = openNotesStore(workbench, 'work');
    o.out(`flower-pty demo: real claude (${claude}) against a scripted model on ${api.url}`);
    o.out(`  project ${sandbox.projectDir} · throwaway CLAUDE_CONFIG_DIR ${sandbox.configDir} · window ${DEMO_SCALE.window / 1000}k, handoff at ${(DEMO_SCALE.window - DEMO_SCALE.headroom) / 1000}k`);
    if (!o.keepGoing) {
      // The demo ends on its own a moment after the successor's first turn (time to read it).
      void model.successorDone.then(() => {
        timer = setTimeout(() => face?.quit(), 4_000);
      });
    }
    const result = await superviseInTerminal(
      {
        claude,
        claudeArgs: sandbox.claudeArgs,
        prompt: DEMO_PROMPT,
        cwd: sandbox.projectDir,
        env: sandbox.env,
        window: DEMO_SCALE.window,
        headroom: DEMO_SCALE.headroom,
        handoff: true,
        keepAutoCompact: false,
        workbench,
        step: 'work',
        reviewMs: o.review * 1000,
        writeTimeoutMs: 60_000,
        quietMs: EDIT_QUIET_MS,
        eventsPath: join(root, 'events.jsonl'),
        resume: null,
        log: log.write,
      },
      {
        plain,
        notify: false,
        documentPath: notes.currentPath,
        decorate: (inner) => (face = narratingFace(inner, (view) => narrate(view, { split: !plain }), { plain })),
      },
    );
    if (result.message) o.out(`flower-pty: ${result.message}`);
    const { manifest } = await readManifest(workbench);
    const facts = {
      root,
      projectDir: sandbox.projectDir,
      workbench,
      manifest,
      documents: documentsUnder(join(workbench, 'notes'), notes.currentPath),
      quotedNext: model.quotedNext(),
      seconds: (Date.now() - started) / 1000,
    };
    for (const line of demoSummary(facts)) o.out(line);
    if (result.signalled) return signalExitCode(result.signalled);
    if (result.exitCode !== EXIT.ok) return result.exitCode;
    return demoCompleted(facts) || o.keepGoing ? EXIT.ok : EXIT.internal;
  } finally {
    if (timer) clearTimeout(timer);
    log.close();
    await api.close();
  }
}
