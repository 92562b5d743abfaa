// The runtime on fake ports and a fake clock: every tool boundary Claude Code announces, heard. A failed
// call's hook (PostToolUseFailure) cuts a turn past the line and is held for its call's row as PostToolUse
// is; a call auto mode refused (PermissionDenied) is said and the cut waits for the next boundary; a
// person's "no" (an interrupt row, no hook) gets the request typed at the prompt; a turn that brings no
// boundary before claude's own limit is said at once (no-boundary).
import t from 'tap';
import {
  startWorld,
  settle,
  response,
  prompt,
  block,
  started,
  toolCall,
  askedPastTheLine,
  interruptedForTool,
} from './fake-ports.js';
import { TYPED_REQUEST_LINE } from '../../src/core/decide/stages/handoff.js';

const failure = (sid: string, id: string) => ({
  session_id: sid,
  hook_event_name: 'PostToolUseFailure',
  tool_name: 'Bash',
  tool_input: { command: 'ls /nope' },
  tool_use_id: id,
  error: 'Exit code 2\nls: cannot access',
  is_interrupt: false,
});

t.test(
  'a failed call past the line is the boundary: its hook waits for the crossing row, then carries the request',
  async (t) => {
    const w = startWorld();
    const sid = await started(w);
    await w.hook('UserPromptSubmit', { session_id: sid, prompt: 'go' });
    w.append(sid, [prompt('go'), toolCall(100_000, 'toolu_1')]);
    t.equal(await w.hook('PostToolUseFailure', failure(sid, 'toolu_1')), '', 'below the line a failed call passes');
    w.append(sid, [toolCall(152_000, 'toolu_2')], { visible: false });
    let answered: string | null = null;
    const answer = w.hook('PostToolUseFailure', failure(sid, 'toolu_2')).then((a) => (answered = a));
    await settle();
    t.equal(answered, null, 'held until the call that crossed the line is read');
    w.reveal(sid);
    const cut = block(await answer);
    t.equal(cut?.decision, 'block');
    t.match(cut?.reason, /Write the handoff document NOW/);
    await settle();
    t.match(w.events.find((e) => e.name === 'tool-waited')?.fields, { landed: true });
    t.match(w.events.find((e) => e.name === 'writing')?.fields, { context: 152_000, cut: 'tool-boundary' });
    t.equal(w.views.at(-1)?.phase, 'writing');
  },
);

t.test('a held failed call whose row never comes is answered after stopWaitMs with what is known', async (t) => {
  const w = startWorld();
  const sid = await started(w);
  await w.hook('UserPromptSubmit', { session_id: sid, prompt: 'go' });
  w.append(sid, [prompt('go'), toolCall(152_000, 'toolu_1')]);
  const answer = w.hook('PostToolUseFailure', failure(sid, 'toolu_9'));
  await settle();
  await w.clock.advance(3_000);
  t.equal(block(await answer)?.decision, 'block', 'the crossing already read is cut all the same');
  await settle();
  t.match(w.events.find((e) => e.name === 'tool-waited')?.fields, { landed: false });
});

t.test(
  'a call auto mode refused is said and passes; the cut comes at the next boundary that can carry it',
  async (t) => {
    const w = startWorld();
    const sid = await askedPastTheLine(w, 'rm -rf build');
    t.equal(
      await w.hook('PermissionDenied', {
        session_id: sid,
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf build' },
        tool_use_id: 'toolu_1',
        reason: 'destructive command',
      }),
      '',
    );
    await settle();
    t.match(w.events.find((e) => e.name === 'tool-denied')?.fields, { tool: 'Bash', reason: 'destructive command' });
    t.equal(w.views.at(-1)?.attention, null, 'the permission wait is over');
    t.notOk(
      w.events.some((e) => e.name === 'writing'),
      'not cut there: its answer carries nothing',
    );
    w.append(sid, [toolCall(153_000, 'toolu_2')]);
    t.equal(block(await w.hook('PostToolUseFailure', failure(sid, 'toolu_2')))?.decision, 'block');
  },
);

t.test(
  'a person\'s "no" past the line ends the turn with no hook: the request is typed at the prompt it leaves',
  async (t) => {
    const w = startWorld();
    const sid = await askedPastTheLine(w, 'touch x');
    w.append(sid, [interruptedForTool()]);
    await settle();
    await w.clock.advance(1_000);
    t.match(w.events.find((e) => e.name === 'writing')?.fields, { context: 152_000, cut: 'typed' });
    const typed = w.child().written.join('');
    t.match(typed, new RegExp(TYPED_REQUEST_LINE.slice(0, 40)), 'the request line went into the prompt');
  },
);

t.test(
  "a turn past the line that reaches claude's own limit with no boundary is said at once, never blamed on the window",
  async (t) => {
    const w = startWorld();
    const sid = await started(w);
    await w.hook('UserPromptSubmit', { session_id: sid, prompt: 'go' });
    w.append(sid, [prompt('go'), response(152_000, 'past the line, thinking on')]);
    await settle();
    await w.clock.advance(40_000);
    w.append(sid, [
      {
        type: 'assistant',
        isApiErrorMessage: true,
        message: { id: 'err', model: '<synthetic>', content: [{ type: 'text', text: 'Prompt is too long' }] },
      },
    ]);
    await settle();
    const said = w.events.find((e) => e.name === 'no-boundary');
    t.match(said?.fields, { generation: 1, context: 152_000, line: 150_000 });
    t.ok(Number(said?.fields.ms) >= 40_000, 'how long since the line');
    t.ok(
      w.events.findIndex((e) => e.name === 'no-boundary') < w.events.findIndex((e) => e.name === 'generation-end'),
      'before the generation ends',
    );
    t.match(w.logs.join('\n'), /crossed the handoff line \d+s before claude's own limit and brought no boundary/);
    t.notMatch(JSON.stringify(w.events), /raise --window/, 'no word of the window');
  },
);
