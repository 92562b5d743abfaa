// `flower-pty demo`: the whole cycle in about a minute with no account and no network. The REAL
// claude runs under the normal supervisor against the built-in scripted model on 127.0.0.1, in a
// throwaway project and CLAUDE_CONFIG_DIR/HOME under the temp folder, never the user's ~/.claude.
// It is a run of a run server like any other (server/demo-serve.ts holds the model there): this terminal
// attaches as its first client, `-d` starts it with none, and ls, attach, C-] d, kill and web work on it.

import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT, FlowerError } from '../core/errors.js';
import { resolveClaude } from '../adapters/claude-binary.js';
import { readManifest } from '../adapters/manifest-store.js';
import { openNotesStore } from '../adapters/notes-store.js';
import { createClaudeSandbox, resolveRepoClaude, PINNED_CLAUDE_VERSION } from '../mock/claude-sandbox.js';
import { DEMO_PROMPT, DEMO_SCALE } from '../demo/demo-model.js';
import { demoCompleted, demoQuit, demoSummary, lineageLines } from '../demo/demo-summary.js';
import { ownCommandHere } from '../adapters/own-command-here.js';
import { resolveRunOptions } from '../core/options/resolve-options.js';
import { startRunServer } from '../server/start-server.js';
import { demoResultPath } from '../server/demo-serve.js';
import { attachTerminal } from '../client/attach-client.js';
import { faceSize } from '../client/attach-hello.js';

/** the scripted model writes its document at once: a minute bounds a demo that went wrong */
const DEMO_WRITE_TIMEOUT_SECONDS = 60;

export interface DemoOptions {
  plain: boolean;
  keepGoing: boolean;
  /** start it with no terminal: print how to attach it and open it in the web face */
  detach: boolean;
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
  if (flag !== undefined || env.FLOWER_PTY_CLAUDE)
    return resolveClaude({ ...(flag !== undefined ? { flag } : {}), env, cwd });
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
  // The folders claude runs in (the server points them at its scripted model when it starts).
  const sandbox = await createClaudeSandbox({ root, baseUrl: 'http://127.0.0.1:0' });
  const workbench = join(sandbox.projectDir, '.flower');
  const notes = openNotesStore(workbench, 'work');
  const plain = o.plain || !process.stdout.isTTY;
  // Detached, nobody watches it end: it keeps its last session until someone quits or kills it.
  const keepGoing = o.keepGoing || o.detach;
  o.out(`flower-pty demo: real claude (${claude}) against a scripted model on 127.0.0.1`);
  o.out(
    `  project ${sandbox.projectDir} · throwaway CLAUDE_CONFIG_DIR ${sandbox.configDir} · window ${DEMO_SCALE.window / 1000}k, ` +
      `handoff at ${(DEMO_SCALE.window - DEMO_SCALE.headroom) / 1000}k`,
  );
  const server = await startRunServer(
    {
      options: {
        claude,
        claudeArgs: sandbox.claudeArgs,
        prompt: DEMO_PROMPT,
        cwd: sandbox.projectDir,
        // the run's own options, as a run given these flags would have them (no config: a throwaway folder)
        resolved: resolveRunOptions(
          {
            window: DEMO_SCALE.window,
            headroom: DEMO_SCALE.headroom,
            review: o.review,
            'write-timeout': DEMO_WRITE_TIMEOUT_SECONDS,
          },
          {},
        ),
        workbench,
        step: 'work',
        eventsPath: join(root, 'events.jsonl'),
        resume: null,
      },
      logPath: join(root, 'flower.log'),
      notify: false,
      // a person at a terminal in the split view: the first review waits for them (C-] p goes on); with
      // no terminal (CI, a pipe, -d) or in --plain, where the document is not on screen, it is timed
      demo: { root, keepGoing, holdFirstReview: !plain && !o.detach && Boolean(process.stdin.isTTY) },
      ...faceSize(plain, process.stdout),
    },
    process.env,
  );
  // the commands printed to copy, as they run from here (a checkout has no flower-pty on the PATH)
  const flower = ownCommandHere(process.env, process.cwd());
  if (o.detach) {
    o.out(
      `  run ${server.id} started with no terminal (pid ${server.pid}); it keeps its last session until you end it`,
    );
    o.out(`    watch it: ${flower} attach ${server.id}   (C-] d detaches again)`);
    o.out(`    in a browser: ${flower} web   (the run ${server.id} on the printed URL; a phone too)`);
    o.out(`    end it: ${flower} kill ${server.id}`);
    for (const line of lineageLines(flower, workbench)) o.out(line);
    return EXIT.ok;
  }
  let detached = false;
  const code = await attachTerminal({
    socketPath: server.socketPath,
    plain,
    detachKey: null,
    documentPath: notes.currentPath,
    starter: true,
    serverExited: server.exited,
    seen: (result) => {
      detached = result.kind === 'detached';
    },
  });
  if (detached) {
    o.out(
      `flower-pty demo: run ${server.id} goes on; watch it again with ${flower} attach ${server.id}, or in ${flower} web; ${flower} kill ${server.id} ends it`,
    );
    for (const line of lineageLines(flower, workbench)) o.out(line);
    return code;
  }
  const { manifest } = await readManifest(workbench);
  const facts = {
    root,
    projectDir: sandbox.projectDir,
    workbench,
    manifest,
    documents: documentsUnder(join(workbench, 'notes'), notes.currentPath),
    quotedNext: quotedNextOf(root),
    seconds: (Date.now() - started) / 1000,
    // only the files there are: a run that wrote no diagnostic line has no log
    logs: [join(root, 'events.jsonl'), join(root, 'flower.log'), server.logPath].filter((path) => existsSync(path)),
    flower,
    exitCode: code,
  };
  for (const line of demoSummary(facts)) o.out(line);
  if (code !== EXIT.ok) return code;
  // a person who quits has chosen to: exit 0, as a run they quit does
  return demoCompleted(facts) || demoQuit(facts) || keepGoing ? EXIT.ok : EXIT.internal;
}

// What the served demo's scripted model saw the successor quote (server/demo-serve.ts writes it at the end).
function quotedNextOf(root: string): string | null {
  try {
    const { quotedNext } = JSON.parse(readFileSync(demoResultPath(root), 'utf8')) as { quotedNext?: unknown };
    return typeof quotedNext === 'string' ? quotedNext : null;
  } catch {
    return null;
  }
}
