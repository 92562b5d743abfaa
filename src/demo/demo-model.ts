// The demo's scripted model: a `respond` for the mock Messages API that works a toy task with real
// Bash calls, lets the context climb past the line, writes a good handoff document when asked, and
// plays a successor that continues from the document's Next (quoting it as it arrived, edits included).

import { parseDocument } from '../core/document/handoff-parse.js';
import { text, usageFor, type MockReply, type MockRequest, type Respond } from '../mock/messages-api.js';

export interface DemoScale {
  /** the window the demo runs with: the handoff line is window − headroom */
  window: number;
  headroom: number;
}

// 100k window, 50k headroom: near at 30k, handoff at 50k. The climb below crosses both.
export const DEMO_SCALE: DemoScale = { window: 100_000, headroom: 50_000 };

// The model claude is told it talks to: one the pinned claude does not list as retired (Claude Sonnet 4.5
// retired on 2026-11-30, and claude 2.1.332 then keeps two warnings on screen for the whole session). The
// scripted model answers whatever the name; the window is the demo's own, so the name decides nothing else.
export const DEMO_MODEL = 'claude-sonnet-4-6';

export const DEMO_PROMPT =
  'flower-pty demo task: make a toy project in toy/ (a few small text files) and a line-count report of it ' +
  'in report.txt, one step at a time.';

// Tells the scripted model that flower-pty asked for the document (handoffRequest's wording).
const HANDOFF_ASK = /Write the handoff document NOW/;
// The successor's first prompt opens with this (successorPrompt's wording).
const TAKING_OVER = /You are TAKING OVER/;

interface ToolStep {
  say: string;
  command: string;
  context: number;
}

// Generation 1 climbs 14k → 54k in five tool calls; the line (50k) is crossed on the last one,
// so flower-pty cuts at that tool boundary and asks for the document.
const FIRST_GENERATION: readonly ToolStep[] = [
  {
    say: 'Setting up the toy project.',
    command:
      "mkdir -p toy && printf 'roses\\nviolets\\nsugar\\n' > toy/poem.txt && printf 'one\\ntwo\\n' > toy/list.txt && ls toy",
    context: 14_000,
  },
  {
    say: 'Adding a third file and counting.',
    command: "printf 'alpha\\nbeta\\ngamma\\ndelta\\n' > toy/greek.txt && wc -l toy/*.txt",
    context: 24_000,
  },
  {
    say: 'Writing the first report.',
    command: 'wc -l toy/poem.txt toy/list.txt toy/greek.txt | sort -n > report.txt && cat report.txt',
    context: 34_000,
  },
  {
    say: 'One more file for the report.',
    command: "printf '%s\\n' a b c d e f > toy/letters.txt && wc -l toy/letters.txt",
    context: 44_000,
  },
  { say: 'Checking word counts too (not needed for the report).', command: 'wc -w toy/*.txt', context: 54_000 },
];

export const DEMO_NEXT =
  'Append the count of toy/letters.txt to report.txt (`wc -l toy/letters.txt >> report.txt`), then show the report.';

export const DEMO_DOCUMENT = [
  '## Doing · 现在在做',
  'Building report.txt: line counts of every file in toy/. poem, list and greek are in it; letters.txt (6 lines) is not yet.',
  '## Decided · 已定的事',
  '- Plain `wc -l`, sorted by count: no scripts, no dependencies (the task is a toy).',
  '- report.txt lives at the project root.',
  '## Dead ends · 走不通的',
  '- `wc -w` for word counts: tried it, the report only wants lines; dropped.',
  '## Next · 下一步',
  DEMO_NEXT,
  '## Scene · 场景',
  '- toy/poem.txt, toy/list.txt, toy/greek.txt, toy/letters.txt',
  '- report.txt',
].join('\n');

export interface DemoModel {
  respond: Respond;
  /** resolves when the successor has been given the last reply of its first turn */
  successorDone: Promise<void>;
  /** the Next the successor quoted (what it found in its first prompt) */
  quotedNext(): string | null;
}

export function createDemoModel(opts: { paceMs?: number } = {}): DemoModel {
  const pace = opts.paceMs ?? 1_500;
  const sessions: string[] = [];
  const steps = new Map<string, number>();
  const contexts = new Map<string, number>();
  let quoted: string | null = null;
  let markDone!: () => void;
  const successorDone = new Promise<void>((resolve) => (markDone = resolve));

  const paced = (reply: MockReply): MockReply =>
    reply.kind === 'text' || reply.kind === 'tool' ? { ...reply, delayMs: pace } : reply;
  const tool = (say: string, command: string, context: number): MockReply =>
    paced({ kind: 'tool', name: 'Bash', input: { command, description: say }, text: say, usage: usageFor(context) });

  function firstGeneration(sid: string, step: number): MockReply {
    const plan = FIRST_GENERATION[step];
    if (plan) {
      contexts.set(sid, plan.context);
      return tool(plan.say, plan.command, plan.context);
    }
    // The handoff request normally arrives at the last tool boundary; if not, end the turn here
    // and it arrives at the turn's end instead.
    const context = (contexts.get(sid) ?? 54_000) + 1_000;
    contexts.set(sid, context);
    return paced(text('Report is almost done: only letters.txt is missing from it.', usageFor(context)));
  }

  function successor(req: MockRequest, sid: string, step: number): MockReply {
    if (step === 0) {
      const next = TAKING_OVER.test(req.lastUserText) ? parseDocument(req.lastUserText).doc.next.trim() : '';
      quoted = next || DEMO_NEXT;
      const say = `Taking over from the handoff document. Its Next says: "${quoted}" Doing that now.`;
      contexts.set(sid, 9_000);
      return tool(say, 'wc -l toy/letters.txt >> report.txt && cat report.txt', 9_000);
    }
    if (step === 1) {
      markDone();
      return paced(
        text(
          'Done: report.txt now lists every file in toy/. I continued exactly where the handoff document said.',
          usageFor(10_000),
        ),
      );
    }
    return paced(text('The toy task is finished.', usageFor(10_500)));
  }

  const respond: Respond = (req) => {
    if (!req.isMain) return text('flower-pty demo');
    const sid = req.sessionId ?? 'unknown';
    if (!sessions.includes(sid)) sessions.push(sid);
    if (HANDOFF_ASK.test(req.lastUserText)) {
      const context = (contexts.get(sid) ?? 54_000) + 2_000;
      return paced(text(DEMO_DOCUMENT, usageFor(context)));
    }
    const step = steps.get(sid) ?? 0;
    steps.set(sid, step + 1);
    return sessions.indexOf(sid) === 0 ? firstGeneration(sid, step) : successor(req, sid, step);
  };

  return { respond, successorDone, quotedNext: () => quoted };
}
