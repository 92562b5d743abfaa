// What the supervisor tells its face, in order, across one handoff with the fake claude, in process:
// the face never hears "review" before it has the frozen document (a review countdown beside
// "No handoff yet" was seen in the split view when the status tick won the race against the freeze).
import t from 'tap';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveRunOptions } from '../src/core/options/resolve-options.js';
import { supervise } from '../src/runtime/supervisor.js';
import type { Face, StatusView } from '../src/runtime/face.js';
import { FAKE_CLAUDE, fakeDoc } from './faults/fake-flower.js';
import { tempRoot } from './helpers/real-claude.js';

type Heard =
  | { kind: 'status'; phase: StatusView['phase']; generation: number }
  | { kind: 'document'; path: string; text: string | null };

function recordingFace(heard: Heard[]): Face {
  return {
    size: () => ({ cols: 100, rows: 30 }),
    onInput() {},
    onResize() {},
    onCommand() {},
    childOutput() {},
    show(show) {
      if (show.t === 'status') heard.push({ kind: 'status', phase: show.view.phase, generation: show.view.generation });
      else if (show.t === 'document') heard.push({ kind: 'document', path: show.path, text: show.text });
    },
    restore() {},
  };
}

t.test('the face has the frozen document before it hears "review"', async (t) => {
  const root = realpathSync(tempRoot(t, 'flower-face-'));
  const project = join(root, 'project');
  const configDir = join(root, 'config');
  for (const dir of [project, configDir, join(root, 'home'), join(root, 'state')]) mkdirSync(dir, { recursive: true });
  const scriptPath = join(root, 'script.json');
  writeFileSync(
    scriptPath,
    JSON.stringify({
      runs: [{ steps: [{ turn: 60_000 }], handoff: { text: fakeDoc('FACE') } }],
      default: { steps: [{ turn: 8_000 }] },
    }),
  );

  const heard: Heard[] = [];
  const abort = new AbortController();
  const done = supervise(
    {
      claude: FAKE_CLAUDE,
      claudeArgs: [],
      prompt: 'go',
      cwd: project,
      env: {
        PATH: process.env.PATH,
        HOME: join(root, 'home'),
        CLAUDE_CONFIG_DIR: configDir,
        TERM: 'xterm-256color',
        FAKE_CLAUDE_SCRIPT: scriptPath,
        FAKE_CLAUDE_STATE: join(root, 'state'),
      },
      resolved: resolveRunOptions({ window: 100_000, review: 0.5, 'write-timeout': 20 }, {}),
      workbench: join(root, 'wb'),
      step: 'work',
      tunables: { quietMs: 200 },
      eventsPath: null,
      resume: null,
      log: () => {},
      signal: abort.signal,
      notify: null,
    },
    recordingFace(heard),
  );
  const deadline = performance.now() + 30_000;
  while (
    !heard.some((h) => h.kind === 'status' && h.generation === 2 && h.phase === 'working') &&
    performance.now() < deadline
  ) {
    await new Promise((r) => setTimeout(r, 50));
  }
  abort.abort();
  await done;

  const firstReview = heard.findIndex((h) => h.kind === 'status' && h.phase === 'review');
  const firstDocument = heard.findIndex((h) => h.kind === 'document');
  t.ok(firstReview > 0, 'the run reached review');
  t.ok(
    firstDocument >= 0 && firstDocument < firstReview,
    `the document (at ${firstDocument}) came before "review" (at ${firstReview})`,
  );
  const doc = heard[firstDocument];
  t.match(doc?.kind === 'document' ? doc.text : '', /Fake task FACE/, 'the frozen text');
  t.match(doc?.kind === 'document' ? doc.path : '', /notes\/.*work\.md$/, 'with its path in the workbench');
});
