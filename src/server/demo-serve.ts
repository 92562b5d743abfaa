// The demo inside a run server: the scripted model's Messages API on 127.0.0.1 lives as long as the run
// (in this process), claude's environment points at it from the demo's throwaway folder, and the narration
// is said through the server's face, so every attached terminal and web page hears it. The demo is then a
// run like any other: `ls` lists it, attach, `C-] d`, kill and the web face work on it.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Face } from '../runtime/face.js';
import { startMockApi } from '../mock/messages-api.js';
import { createClaudeSandbox } from '../mock/claude-sandbox.js';
import { createDemoModel, DEMO_MODEL } from '../demo/demo-model.js';
import { narrate } from '../demo/narration.js';
import { narratingFace, type NarratingFace } from '../demo/narrating-face.js';

/** what the demo command asks of the server it starts (in the run spec) */
export interface DemoSpec {
  /** the demo's throwaway folder: project/, config/, home/ (made by the demo command) */
  root: string;
  /** leave the last session running until someone quits or kills it */
  keepGoing: boolean;
  /** hold the first review until the person goes on (C-] p): a person watches it in the split view */
  holdFirstReview?: boolean;
}

export interface ServedDemo {
  /** claude's environment: the sandbox's, pointed at this process's scripted model */
  env: Record<string, string>;
  /** the server's face with the demo's narration in the status note */
  face(inner: Face): Face;
  /** after the run: what the demo command's summary needs (demoResultPath), and the model's API closed */
  end(): Promise<void>;
}

/** where the served demo leaves what only the scripted model knows: the successor's quote of its Next */
export function demoResultPath(root: string): string {
  return join(root, 'demo-result.json');
}

/** a successor has quoted the document's Next: the demo ends this long after, time to read it */
const AFTER_SUCCESSOR_MS = 4_000;

export async function serveDemo(demo: DemoSpec, baseEnv: Record<string, string | undefined>): Promise<ServedDemo> {
  const model = createDemoModel();
  const api = await startMockApi({ respond: model.respond });
  const sandbox = await createClaudeSandbox({ root: demo.root, baseUrl: api.url, baseEnv, model: DEMO_MODEL });
  let narrating: NarratingFace | null = null;
  let timer: NodeJS.Timeout | null = null;
  if (!demo.keepGoing) {
    void model.successorDone.then(() => {
      timer = setTimeout(() => narrating?.quit(), AFTER_SUCCESSOR_MS);
    });
  }
  return {
    env: sandbox.env,
    face(inner) {
      narrating = narratingFace(inner, (view) => narrate(view, { split: true }), {
        plain: false,
        holdFirstReview: demo.holdFirstReview ?? false,
      });
      return narrating;
    },
    async end() {
      if (timer) clearTimeout(timer);
      writeFileSync(demoResultPath(demo.root), JSON.stringify({ quotedNext: model.quotedNext() }), { mode: 0o600 });
      await api.close();
    },
  };
}
