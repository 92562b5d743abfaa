// Handoff overhead with the REAL claude against the mock API: from the writing turn's request (the
// mock answers it at once) to the successor's first request, split into flower-pty's part and the
// successor claude's own start-up; beside a bare claude's start-up to its first request.
// A part of scripts/bench.mjs; returns numbers, prints nothing itself.
import { spawn } from '@lydell/node-pty';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { serverPids } from './bench-terminal.mjs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const FLOWER = join(REPO, 'bin', 'flower-pty.js');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ASK = /Write the handoff document NOW/;
const DOC = '## Doing\nBenchmarking the handoff.\n## Decided\nNothing.\n## Next\nReport the numbers.\n';

async function until(predicate, ms, what) {
  const deadline = performance.now() + ms;
  while (!(await predicate())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function ptyRun(file, args, sandbox) {
  const pty = spawn(file, args, {
    name: 'xterm-256color',
    cols: 120,
    rows: 40,
    cwd: sandbox.projectDir,
    env: sandbox.env,
  });
  // claude asks the terminal for its attributes and cursor; answer like a terminal would.
  pty.onData((d) => {
    if (d.includes('\u001b[c')) pty.write('\u001b[?62;22c');
    if (d.includes('\u001b[6n')) pty.write('\u001b[1;1R');
  });
  return {
    pty,
    kill() {
      try {
        process.kill(-pty.pid, 'SIGKILL');
      } catch {
        // gone
      }
    },
  };
}

export async function handoffOverhead({ rounds = 1 } = {}) {
  const { startMockApi, text, usageFor } = await import(join(REPO, 'dist', 'mock', 'messages-api.js'));
  const { createClaudeSandbox, resolveRepoClaude } = await import(join(REPO, 'dist', 'mock', 'claude-sandbox.js'));
  const claude = resolveRepoClaude();
  const samples = [];
  const bare = [];
  for (let round = 0; round < rounds; round++) {
    let firstSession;
    const api = await startMockApi({
      respond: (req) => {
        if (!req.isMain) return text('side');
        firstSession ??= req.sessionId;
        if (req.sessionId !== firstSession) return text('successor here', usageFor(12_000));
        return ASK.test(req.lastUserText) ? text(DOC, usageFor(56_000)) : text('worked', usageFor(55_000));
      },
    });
    const root = mkdtempSync(join(tmpdir(), 'flower-bench-handoff-'));
    let run = null;
    try {
      // flower-pty's run server is detached from the pty: its own socket folder, ended below.
      mkdirSync(join(root, 'run'), { mode: 0o700 });
      const sandbox = await createClaudeSandbox({
        root,
        baseUrl: api.url,
        env: { XDG_RUNTIME_DIR: join(root, 'run') },
      });
      const events = join(root, 'events.jsonl');
      run = ptyRun(
        process.execPath,
        [
          FLOWER,
          '--plain',
          '--claude',
          claude,
          '--workbench',
          join(root, 'wb'),
          '--events',
          events,
          '--window',
          '100k',
          '--review',
          '0',
          'start the work',
          '--',
          ...sandbox.claudeArgs,
        ],
        sandbox,
      );
      const readEvents = () =>
        existsSync(events)
          ? readFileSync(events, 'utf8')
              .split('\n')
              .filter(Boolean)
              .map((l) => JSON.parse(l))
          : [];
      const gen2 = () => readEvents().find((e) => e.event === 'generation-start' && e.generation === 2);
      await until(
        () => gen2() && api.requests.some((r) => r.isMain && r.sessionId === gen2().session_id),
        120_000,
        "the successor's first request",
      );
      const ask = api.requests.find((r) => r.isMain && ASK.test(r.lastUserText));
      const successor = api.requests.find((r) => r.isMain && r.sessionId === gen2().session_id);
      const spawnedAt = Date.parse(gen2().ts);
      // The steps, from the events file's own times: the writing turn's end reaching the run (claude's Stop
      // hook and the hook client's start), the document frozen (git facts, atomic write; the review opens),
      // the successor spawned. Beside them, how long the writing turn's Stop hook was held for its row
      // (`stop-waited`; none when the row was in before the hook ran): part of the turn end's step.
      const find = (name, generation) => readEvents().find((e) => e.event === name && e.generation === generation);
      await until(() => find('done', 1), 10_000, 'the done event');
      const at = (name, generation) => Date.parse(find(name, generation).ts);
      const retired = at('generation-end', 1);
      const frozen = at('review', 1);
      samples.push({
        total: successor.receivedAt - ask.receivedAt,
        flower: spawnedAt - ask.receivedAt,
        claudeStart: successor.receivedAt - spawnedAt,
        lastRow:
          readEvents()
            .filter((e) => e.event === 'stop-waited' && e.generation === 1)
            .at(-1)?.ms ?? null,
        steps: {
          'turn end → Stop hook in the run': retired - ask.receivedAt,
          'git facts + freeze': frozen - retired,
          'frozen → successor spawned': spawnedAt - frozen,
        },
      });
      run.kill();
      run = null;
      for (const pid of serverPids(join(root, 'run'))) process.kill(pid, 'SIGKILL');
      // Bare claude: spawn to its first main request, same sandbox, same kind of prompt.
      const before = api.requests.length;
      const t0 = Date.now();
      run = ptyRun(claude, [...sandbox.claudeArgs, 'start the work'], sandbox);
      await until(() => api.requests.slice(before).some((r) => r.isMain), 120_000, "bare claude's first request");
      bare.push(api.requests.slice(before).find((r) => r.isMain).receivedAt - t0);
    } finally {
      run?.kill();
      for (const pid of serverPids(join(root, 'run'))) process.kill(pid, 'SIGKILL');
      await api.close();
      await sleep(300);
      rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return {
    rounds,
    totalMs: median(samples.map((s) => s.total)),
    flowerMs: median(samples.map((s) => s.flower)),
    successorStartMs: median(samples.map((s) => s.claudeStart)),
    bareStartMs: median(bare),
    // per round: how long after its Stop hook the writing turn's row landed (null: it was in before the hook ran)
    lastRowMs: samples.map((s) => s.lastRow),
    stepsMs: Object.fromEntries(
      Object.keys(samples[0].steps).map((step) => [step, median(samples.map((s) => s.steps[step]))]),
    ),
  };
}
