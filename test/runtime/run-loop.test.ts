// The runtime on fake ports and a fake clock, no processes: whole lineages, the Stop race, hooks
// that never come, usage limits, permission waits, failed spawns and early deaths, in milliseconds.
import t from 'tap';
import { ENTER_AFTER_TYPING_MS } from '../../src/core/run/child-timing.js';
import { ROW_LOOK_MS } from '../../src/core/decide/clock.js';
import {
  startWorld,
  settle,
  response,
  prompt,
  turnEnd,
  block,
  started,
  COMPLETE_DOC,
  type World,
} from './fake-ports.js';

t.test('a whole handoff: cut at the turn end, freeze, review, the successor seeded with the document', async (t) => {
  const w = startWorld();
  const sid = await started(w);
  t.equal(w.child().prompt, 'build the thing');
  w.append(sid, [prompt('build the thing'), response(80_000, 'working on it')]);
  t.equal(
    block(await w.hook('Stop', { session_id: sid, last_assistant_message: 'working on it' })),
    null,
    'below the line the turn ends',
  );
  // The next prompt: its hook first, then its rows, as claude sends them.
  await w.hook('UserPromptSubmit', { session_id: sid, prompt: 'more' });
  w.append(sid, [prompt('more'), response(155_000, 'crossed')]);
  const cut = block(await w.hook('Stop', { session_id: sid, last_assistant_message: 'crossed' }));
  t.equal(cut?.decision, 'block', 'the crossing turn is cut at its end');
  t.match(cut?.reason, /handoff/i);
  w.append(sid, [response(160_000, COMPLETE_DOC)]);
  t.equal(await w.hook('Stop', { session_id: sid, last_assistant_message: COMPLETE_DOC }), '');
  await settle();
  const frozen = w.documents.get('/p/.flower/notes/doc.md') ?? '';
  t.equal(frozen.includes('building the thing'), true, 'frozen to disk');
  t.match(
    frozen,
    /\[flower-pty facts · written by flower-pty, not by the model\]\n- previous session's transcript[^\n]*\/config\/projects\/-p\/[0-9a-f-]+\.jsonl\n- git HEAD abc1234, 2 files changed/,
    'the Scene ends with what flower-pty knows for certain',
  );
  t.ok(w.told.includes('review'), 'the notify command hears that a document waits');
  t.ok(w.child().exited, 'the old claude was ended');
  t.equal(w.views.at(-1)?.phase, 'review');
  t.ok(w.events.findIndex((e) => e.name === 'review') > -1, 'a review event for the notify command');
  t.equal(w.children.length, 1, 'the review window is open');
  await w.clock.advance(10_000);
  t.equal(w.children.length, 2, 'the successor started when the review window closed');
  t.match(w.child().prompt, /TAKING OVER[\s\S]*building the thing/);
  t.equal(w.manifests.at(-1)?.generations.length, 2);
  t.equal(w.manifests.at(-1)?.generations[0]?.end, 'handoff');
});

// A turn whose crossing response is written, but not yet visible, when its Stop hook runs: the hook is held.
async function heldStop(w: World): Promise<{ sid: string; answer: Promise<string>; settled: () => boolean }> {
  const sid = await started(w);
  w.append(sid, [prompt('go'), response(100_000, 'step one')]);
  w.append(sid, [response(152_000, 'the crossing reply')], { visible: false });
  const answer = w.hook('Stop', { session_id: sid, last_assistant_message: 'the crossing reply' });
  await settle();
  let settledYet = false;
  void answer.then(() => (settledYet = true));
  return { sid, answer, settled: () => settledYet };
}

t.test("the Stop race: the turn's crossing response lands after the hook ran, and the turn is still cut", async (t) => {
  const w = startWorld();
  const { sid, answer, settled } = await heldStop(w);
  await settle();
  t.equal(settled(), false, 'the hook waits for its response to reach the transcript');
  w.reveal(sid);
  t.equal(block(await answer)?.decision, 'block', 'decided with the crossing counted');
  await settle();
  t.match(w.events.find((e) => e.name === 'stop-waited')?.fields, { landed: true }, 'the wait is in the events file');
  t.equal(w.views.at(-1)?.phase, 'writing');
});

t.test("a held hook finds its row within ROW_LOOK_MS of landing, not at the tail's next poll", async (t) => {
  const w = startWorld();
  const { sid, answer, settled } = await heldStop(w);
  // On disk now, but the tail has not polled: only the runtime's look before its tick reads it.
  w.append(sid, [], { polled: false });
  await settle();
  t.equal(settled(), false, 'not read yet');
  await w.clock.advance(ROW_LOOK_MS);
  t.equal(block(await answer)?.decision, 'block', 'read at the next look, and decided with the crossing counted');
  await settle();
  t.match(w.events.find((e) => e.name === 'stop-waited')?.fields, { landed: true, ms: ROW_LOOK_MS });
});

t.test(
  'the Stop race, response never seen: the hook is answered after the bounded wait, and the idle crossing is typed',
  async (t) => {
    const w = startWorld({ stopWaitMs: 2_000 });
    const sid = await started(w);
    w.append(sid, [prompt('go'), response(100_000, 'step one')]);
    const answer = w.hook('Stop', { session_id: sid, last_assistant_message: 'never written' });
    await w.clock.advance(2_000);
    t.equal(await answer, '', 'after the wait the turn ends from the old reading');
    // The crossing shows up only now, with claude idle (the turn's end row, as claude writes it after its Stop
    // hooks, says the turn is over): nobody will make a boundary, so the request is typed.
    w.append(sid, [response(153_000, 'late row'), turnEnd()]);
    await settle();
    await settle();
    await w.clock.advance(ENTER_AFTER_TYPING_MS); // Enter goes on the run's clock, never after a real sleep
    t.equal(w.requests.length, 1, 'the request went to a file');
    t.match(w.requests[0], /Doing/);
    t.match(
      w.child().written.join(''),
      /flower-pty: your context window is nearly full\. Read the file \/p\/\.flower\/notes\/handoff-request-1\.md/,
    );
    t.equal(w.child().written.at(-1), '\r', 'then Enter, as its own write');
    t.equal(w.views.at(-1)?.phase, 'writing');
  },
);

t.test(
  'no hook ever arrives: said once, and the handoff is typed at the idle prompt and read from the transcript',
  async (t) => {
    const w = startWorld({ hooklessAfterMs: 20_000 });
    await settle();
    const sid = w.child().sessionId;
    w.append(sid, [prompt('go'), response(155_000, 'did stuff'), turnEnd()]);
    await w.clock.advance(5_000);
    t.ok(
      w.events.some((e) => e.name === 'hooks-missing'),
      'noticed within seconds of a turn end with no Stop hook',
    );
    t.equal(w.events.filter((e) => e.name === 'hooks-missing').length, 1, 'said once');
    await settle();
    await w.clock.advance(ENTER_AFTER_TYPING_MS); // Enter goes on the run's clock, never after a real sleep
    t.equal(w.requests.length, 1, 'the request was typed');
    t.match(w.views.at(-1)?.attention, /no hooks/);
    w.append(sid, [
      prompt('flower-pty: your context window is nearly full. Read the file x'),
      response(160_000, COMPLETE_DOC),
      turnEnd(),
    ]);
    await settle();
    t.match(w.documents.get('/p/.flower/notes/doc.md'), /building the thing/, 'the reply in the transcript was frozen');
    t.equal(w.manifests.at(-1)?.original_prompt, 'go', "the typed request is not the lineage's prompt");
  },
);

t.test(
  "parked on a usage limit: shown, evented, the pending cut kept, the auto-continuation is not a person's prompt",
  async (t) => {
    const w = startWorld();
    const sid = await started(w);
    w.append(sid, [prompt('go'), response(155_000, 'crossed mid turn')]);
    await w.hook('StopFailure', {
      session_id: sid,
      error: 'rate_limit',
      last_assistant_message: "You've hit your 5-hour limit · resets 3:04am (UTC)",
    });
    const reset = Math.floor(w.clock.now() / 1000) + 600;
    await w.hook('statusline', {
      session_id: sid,
      rate_limits: { five_hour: { used_percentage: 100, resets_at: reset } },
    });
    await settle();
    t.match(w.views.at(-1)?.attention, /^parked until \d\d:\d\d$/);
    t.ok(w.events.some((e) => e.name === 'parked'));
    t.equal(w.views.at(-1)?.phase, 'near', 'parked is not a boundary: no handoff asked yet');
    t.equal(w.requests.length, 0, 'a subscription session continues by itself: nothing typed');
    await w.clock.advance(700_000);
    t.equal(w.child().written.length, 0, "never typed over Claude Code's own auto-continue");
    await w.hook('Notification', { session_id: sid, notification_type: 'quota_auto_resume_fired', message: '' });
    await w.hook('UserPromptSubmit', {
      session_id: sid,
      prompt: 'Your claude.ai usage limit has reset. Continue the task you were working on',
    });
    t.ok(w.events.some((e) => e.name === 'resumed'));
    t.same(
      w.told.filter((x) => x === 'parked' || x === 'resumed'),
      ['parked', 'resumed'],
      'told both',
    );
    t.equal(w.views.at(-1)?.attention, null);
    t.equal(w.manifests.at(-1)?.original_prompt, 'go');
    w.append(sid, [response(156_000, 'went on')]);
    t.equal(
      block(await w.hook('Stop', { session_id: sid, last_assistant_message: 'went on' }))?.decision,
      'block',
      'the pending handoff happens at the next boundary',
    );
  },
);

t.test('an API-key session parked on a limit is continued once after the back-off', async (t) => {
  const w = startWorld({ parkedRetryMs: 60_000 });
  const sid = await started(w);
  w.append(sid, [prompt('go'), response(50_000, 'x')]);
  await w.hook('StopFailure', {
    session_id: sid,
    error: 'rate_limit',
    last_assistant_message: "API Error: Request rejected (429) · This request would exceed your account's rate limit.",
  });
  await w.clock.advance(59_000);
  t.equal(w.child().written.length, 0);
  await w.clock.advance(2_000);
  await settle();
  await w.clock.advance(ENTER_AFTER_TYPING_MS); // Enter goes on the run's clock, never after a real sleep
  t.same(w.child().written, ['continue', '\r'], 'typed once');
  await w.clock.advance(600_000);
  t.equal(w.child().written.length, 2, 'only once');
});

t.test('a permission wait is a state that clears when the tool runs', async (t) => {
  const w = startWorld();
  const sid = await started(w);
  await w.hook('PermissionRequest', { session_id: sid, tool_name: 'Bash', tool_input: { command: 'touch x' } });
  t.equal(w.views.at(-1)?.attention, 'waiting for your permission: Bash touch x');
  await settle();
  t.match(w.events.find((e) => e.name === 'needs-permission')?.fields, { tool: 'Bash', what: 'Bash touch x' });
  await w.hook('PostToolUse', { session_id: sid, tool_name: 'Bash' });
  t.equal(w.views.at(-1)?.attention, null);
  await w.hook('Notification', {
    session_id: sid,
    notification_type: 'idle_prompt',
    message: 'Claude is waiting for your input',
  });
  t.equal(w.views.at(-1)?.attention, 'waiting for you');
  await settle();
  t.ok(w.events.some((e) => e.name === 'idle'));
});

t.test(
  'a question (AskUserQuestion, as 2.1.332 sent it) is shown and told as itself, and clears when answered',
  async (t) => {
    const { readFileSync } = await import('node:fs');
    const recorded = readFileSync(
      new URL('../fixtures/claude-code/2.1.332/scenarios/session-scope/question-hooks.jsonl', import.meta.url),
      'utf8',
    )
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const permission = recorded.find((p) => p.event === 'PermissionRequest')!;
    const w = startWorld();
    const sid = await started(w);
    const ASKED = 'claude asks: Which parser should we use? (Hand-written / Generated)';
    // The recorded payload is this run's session, in this run's transcript (else the run follows the recorded path).
    await w.hook('PermissionRequest', {
      ...permission,
      session_id: sid,
      transcript_path: `/config/projects/-p/${sid}.jsonl`,
      cwd: '/p',
    });
    t.equal(w.views.at(-1)?.attention, ASKED);
    await w.hook('Notification', {
      session_id: sid,
      notification_type: 'permission_prompt',
      message: 'Claude needs your permission',
    });
    t.equal(w.views.at(-1)?.attention, ASKED, "Claude Code's own permission notification does not hide the question");
    await settle();
    t.match(w.events.find((e) => e.name === 'question')?.fields, {
      tool: 'AskUserQuestion',
      question: 'Which parser should we use? (Hand-written / Generated)',
    });
    t.notOk(
      w.events.some((e) => e.name === 'needs-permission'),
      'not told as a permission',
    );
    t.ok(w.told.includes('question'), 'the notify command hears it');
    await w.hook('PostToolUse', { session_id: sid, tool_name: 'AskUserQuestion' });
    t.equal(w.views.at(-1)?.attention, null, 'answered: cleared');
    await w.hook('PermissionRequest', {
      session_id: sid,
      tool_name: 'AskUserQuestion',
      tool_input: {
        questions: [{ question: 'Go on?', options: [{ label: 'yes' }, { label: 'no' }] }, { question: 'Second?' }],
      },
    });
    t.equal(w.views.at(-1)?.attention, 'claude asks: Go on? (yes / no) (+1 more question)');
    w.append(sid, [
      {
        type: 'user',
        message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }] },
      },
    ]);
    await settle();
    t.equal(w.views.at(-1)?.attention, null, 'dismissed (an interrupt row): cleared');
    await w.hook('PermissionRequest', { session_id: sid, tool_name: 'AskUserQuestion', tool_input: {} });
    t.equal(
      w.views.at(-1)?.attention,
      'waiting for your permission: AskUserQuestion',
      'no question in it: a permission as before',
    );
  },
);

t.test('a PreCompact while handing off is blocked and becomes a crossing', async (t) => {
  const w = startWorld();
  const sid = await started(w);
  w.append(sid, [prompt('go'), response(100_000, 'x')]);
  t.equal(block(await w.hook('PreCompact', { session_id: sid, trigger: 'auto' }))?.decision, 'block');
  await settle();
  t.ok(w.events.some((e) => e.name === 'compaction-blocked'));
  t.equal(block(await w.hook('PostToolUse', { session_id: sid }))?.decision, 'block', 'cut at the next boundary');
  t.equal(
    await w.hook('PreCompact', { session_id: sid, trigger: 'manual' }),
    '',
    "a manual /compact is the person's choice",
  );
});

t.test(
  'claude dead in its first seconds: one stop with its own last lines, no degraded document, no respawn',
  async (t) => {
    const w = startWorld();
    await settle();
    w.child().print('\u001b[31mInvalid API key · Please run /login\u001b[0m\r\n');
    await w.clock.advance(1_200);
    w.child().exit({ code: 1 });
    const result = await w.loop.done;
    t.equal(result.exitCode, 4);
    t.match(result.message, /before its first turn.*Invalid API key · Please run \/login/);
    t.equal(w.documents.size, 0, 'no degraded document');
    t.equal(w.children.length, 1, 'no chain of empty generations');
    await settle();
    t.equal(w.told.at(-1), 'crash-stop');
  },
);

t.test('a spawn that fails never leaves the run respawning: a clean stop with the lineage intact', async (t) => {
  const w = startWorld({ reviewMs: 0 });
  const sid = await started(w);
  w.append(sid, [prompt('go'), response(155_000, 'x')]);
  await w.hook('Stop', { session_id: sid, last_assistant_message: 'x' });
  w.spawnError = 'no "claude" on PATH: install Claude Code';
  w.append(sid, [response(156_000, COMPLETE_DOC)]);
  await w.hook('Stop', { session_id: sid, last_assistant_message: COMPLETE_DOC });
  const result = await w.loop.done;
  t.equal(result.exitCode, 5);
  t.match(result.message, /no "claude" on PATH/);
  t.equal(w.manifests.at(-1)?.generations[0]?.end, 'handoff', 'the handoff is recorded: --continue can pick it up');
  t.ok(w.documents.get('/p/.flower/notes/doc.md'));
});

t.test("timers that fire early, as Node's do against Date.now(): the review still counts down and ends", async (t) => {
  // A tick that lands a millisecond before its moment asks for the same moment again: the core
  // must arm a new timer for it, not take the spent one for still armed (the demo froze that way).
  for (const earlyMs of [1, 7]) {
    const w = startWorld({}, { earlyMs });
    const sid = await started(w);
    w.append(sid, [prompt('go'), response(155_000, 'crossed')]);
    t.equal(block(await w.hook('Stop', { session_id: sid, last_assistant_message: 'crossed' }))?.decision, 'block');
    w.append(sid, [response(160_000, COMPLETE_DOC)]);
    await w.hook('Stop', { session_id: sid, last_assistant_message: COMPLETE_DOC });
    await settle();
    t.equal(w.views.at(-1)?.phase, 'review', `early by ${earlyMs} ms: in review`);
    const shown = new Set<number>();
    for (let i = 0; i < 12 && w.children.length === 1; i++) {
      await w.clock.advance(1_000);
      for (const v of w.views) if (v.reviewLeft !== null) shown.add(v.reviewLeft);
    }
    t.equal(w.children.length, 2, `early by ${earlyMs} ms: the successor started when the review ended`);
    t.ok(shown.size >= 8, `early by ${earlyMs} ms: the countdown moved (${[...shown].join(' ')})`);
    w.command('quit');
    await w.loop.done;
  }
});

// A handoff whose old claude takes its time to exit, past a one-second review.
// A run handed off with COMPLETE_DOC, in its review window.
async function inReview(
  t: Pick<typeof import('tap').default, 'equal'>,
  w: ReturnType<typeof startWorld>,
): Promise<string> {
  const sid = await started(w);
  w.append(sid, [prompt('go'), response(155_000, 'crossed')]);
  await w.hook('Stop', { session_id: sid, last_assistant_message: 'crossed' });
  w.append(sid, [response(160_000, COMPLETE_DOC)]);
  await w.hook('Stop', { session_id: sid, last_assistant_message: COMPLETE_DOC });
  await settle();
  t.equal(w.views.at(-1)?.phase, 'review');
  return sid;
}

async function retiredSlowly(t: Pick<typeof import('tap').default, 'equal' | 'ok' | 'notOk'>) {
  const w = startWorld({ reviewMs: 1_000 }, { slowExit: true });
  const sid = await inReview(t, w);
  const old = w.child();
  await w.clock.advance(1_500);
  await settle();
  t.notOk(old.exited, 'the old claude is slow to go');
  t.equal(w.children.length, 2, "the successor started at the review's end all the same");
  t.ok(w.manifests.at(-1)?.generations[0]?.handoff_path, 'after the document and the manifest were written');
  return { w, sid, old };
}

t.test('the old claude ending in a held review says no countdown; in a timed one it does', async (t) => {
  for (const hold of [true, false]) {
    const w = startWorld({ reviewMs: 10_000 }, { slowExit: true });
    await inReview(t, w);
    if (hold) w.command('hold');
    await settle();
    w.child().exit({ code: 0, signal: 15 });
    await settle();
    const countdown = w.said.some((line) => /the successor starts in \d+s/.test(line));
    t.equal(countdown, !hold, hold ? 'held: no "starts in"' : 'timed: the countdown is said');
    w.command('quit');
    await w.loop.done;
  }
});

t.test(
  "a successor does not wait for the old claude to be gone, and the old one's late rows and exit decide nothing",
  async (t) => {
    const { w, sid, old } = await retiredSlowly(t);
    w.append(sid, [response(170_000, 'late')]);
    old.exit({ code: 0, signal: 15 });
    await settle();
    t.notOk(
      w.events.some((e) => e.name === 'child-exit'),
      'the old exit decides nothing',
    );
    t.equal(w.views.at(-1)?.phase, 'working');
    t.notOk(w.loop.state.finished);
    t.equal(w.loop.state.gen?.context, 0, 'the old transcript no longer meters the successor');
    w.command('quit');
    await w.loop.done;
  },
);

t.test(
  "the writing turn's Stop is held until its row is in the transcript; a forged Stop freezes nothing",
  async (t) => {
    const w = startWorld({ reviewMs: 0, stopWaitMs: 2_000 });
    const sid = await started(w);
    w.append(sid, [prompt('go'), response(155_000, 'crossed')]);
    await w.hook('Stop', { session_id: sid, last_assistant_message: 'crossed' });
    // Any command claude runs has the channel's token: Stops of its own, with a document of its own.
    const forgedDoc = COMPLETE_DOC.replace('building the thing', 'FORGED-MARK');
    t.equal(await w.hook('Stop', { last_assistant_message: forgedDoc }), '', 'one naming no session');
    t.equal(
      await w.hook('Stop', { session_id: 'another-session', last_assistant_message: forgedDoc }),
      '',
      "one naming another session's",
    );
    const forged = w.hook('Stop', { session_id: sid, last_assistant_message: forgedDoc });
    await settle();
    t.equal(w.children.length, 1, 'nothing frozen on their word');
    await w.clock.advance(2_000);
    t.equal(
      await forged,
      '',
      "one naming the session's id, whose text never reaches the transcript: refused when its wait runs out",
    );
    t.equal(w.children.length, 1, 'still nothing frozen');
    t.equal(w.events.filter((e) => e.name === 'stop-refused').length, 2, 'said in the events');
    // The model's own: its Stop comes first (as 2.1.332 runs it), its row a moment later.
    const real = w.hook('Stop', { session_id: sid, last_assistant_message: COMPLETE_DOC });
    await settle();
    t.equal(w.children.length, 1, 'held until its row is in');
    w.append(sid, [response(160_000, COMPLETE_DOC)]);
    await w.clock.advance(ROW_LOOK_MS);
    t.equal(await real, '', 'answered once the row landed');
    await settle();
    t.equal(w.children.length, 2, 'the successor started');
    t.match(w.documents.get('/p/.flower/notes/doc.md'), /building the thing/, "from the model's document");
    t.notMatch(w.documents.get('/p/.flower/notes/doc.md'), /FORGED-MARK/, 'never the forged one');
    t.match(
      w.events.find((e) => e.name === 'done')?.fields,
      { generation: 1, context: 160_000 },
      "done with the writing turn's own reading",
    );
    w.command('quit');
    await w.loop.done;
  },
);

t.test('a quit while the old claude is still on its way out ends it too', async (t) => {
  const { w, old } = await retiredSlowly(t);
  t.equal(old.terminated, 1, 'told to end at the freeze');
  w.command('quit');
  await settle();
  t.equal(old.terminated, 2, "and again by the run's end, which waits for it");
  t.ok(w.child().terminated >= 1, 'the successor is ended as well');
  old.exit({ code: 0, signal: 15 });
  w.child().exit({ code: 0, signal: 15 });
  await w.loop.done;
});

t.test('an idle run sets no timer; a quit ends it', async (t) => {
  const w = startWorld({ hooklessAfterMs: 30_000 });
  const sid = await started(w);
  w.append(sid, [prompt('go'), response(10_000, 'x')]);
  await w.hook('Stop', { session_id: sid, last_assistant_message: 'x' });
  await settle();
  t.equal(w.clock.pending(), 0, 'nothing is due, so nothing will fire');
  w.command('quit');
  const result = await w.loop.done;
  t.equal(result.exitCode, 0);
  t.equal(w.manifests.at(-1)?.generations[0]?.end, 'quit');
  t.ok(w.events.some((e) => e.name === 'ended'));
  await settle();
  t.equal(w.told.at(-1), 'ended');
});

t.test('the manifest records the events file, so the report finds it without a flag', async (t) => {
  const w = startWorld({ eventsPath: '/p/events.jsonl' });
  await started(w);
  t.equal(w.manifests.at(-1)?.events_path, '/p/events.jsonl');
  t.equal(startWorld().manifests.at(-1)?.events_path, undefined, 'none given, none recorded');
});

t.test(
  "the session's own state, read off its transcript, is in the document's facts and in the successor's first prompt",
  async (t) => {
    const { readFileSync } = await import('node:fs');
    const fixture = new URL('../fixtures/claude-code/2.1.332/scenarios/session-scope/scope.jsonl', import.meta.url);
    // The recorded rows up to the /goal clear, with this world's session id.
    const rows = readFileSync(fixture, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        const { sessionId: _recorded, ...row } = JSON.parse(l) as Record<string, unknown>;
        return row;
      });
    const w = startWorld();
    const sid = await started(w);
    w.append(sid, [
      prompt('build the thing'),
      ...rows.slice(
        0,
        rows.findIndex((r) => JSON.stringify(r).includes('"met":true')),
      ),
      response(155_000, 'crossed'),
    ]);
    const cut = block(await w.hook('Stop', { session_id: sid, last_assistant_message: 'crossed' }));
    t.equal(cut?.decision, 'block');
    w.append(sid, [response(160_000, COMPLETE_DOC)]);
    await w.hook('Stop', { session_id: sid, last_assistant_message: COMPLETE_DOC });
    await settle();
    const frozen = w.documents.get('/p/.flower/notes/doc.md') ?? '';
    const facts = frozen.slice(frozen.indexOf('[flower-pty facts'));
    t.match(facts, /\n- goal \(the successor sets it again\): "all tests in test\/core pass"/);
    t.match(facts, /\n- open task #1 \(in progress\): "Write the parser"; the successor creates it again/);
    t.match(
      facts,
      /\n- open task #2 \(pending\): "Test the parser well", blocked by #1; the successor creates it again/,
    );
    t.notMatch(facts, /Drop the old code|Throw away/, 'a completed and a deleted task are not open');
    t.match(facts, /\n- pending \/loop wake-up in 600 s, prompt "check the build"; the successor schedules it again/);
    t.match(
      facts,
      /\n- session cron \*\/5 \* \* \* \* \(Every 5 minutes\), recurring, prompt "look at the queue"; the successor creates it again/,
    );
    t.notMatch(facts, /weekly report|one shot reminder/, 'a durable cron and a deleted one are not carried');
    t.match(facts, /\n- ended with the previous session, not carried: monitor "tail -f \/dev\/null" \(watch the log\)/);
    t.match(
      facts,
      /\n- ended with the previous session, not carried: background shell "sleep 600" \(Sleep for ten minutes\)/,
    );
    t.notMatch(facts, /echo quick|sleep 500/, 'a finished shell and a stopped one are not listed');
    await w.clock.advance(10_000);
    const first = w.child().prompt ?? '';
    t.match(first, /TAKING OVER/);
    t.match(
      first,
      /Before you go on with the work:\n- Set the goal again with the condition "all tests in test\/core pass"/,
    );
    t.match(
      first,
      /- Create these tasks again in your task list[^\n]*\n {2}- task #1 \(in progress\): "Write the parser": parse the rows\n {2}- task #2 \(pending\): "Test the parser well", blocked by #1: table tests/,
    );
    t.match(
      first,
      /- Schedule the \/loop wake-up again with exactly the prompt "check the build" and a delay of 600 seconds\./,
    );
    t.match(
      first,
      /- Create these session-only crons again[^\n]*\n {2}- session cron \*\/5 \* \* \* \*[^\n]*"look at the queue"\n {2}- session cron 0 \* \* \* \* \(Every hour\), recurring, prompt "hourly look"/,
    );
    t.match(
      first,
      /cannot be carried over[^\n]*\n {2}- monitor "tail -f \/dev\/null" \(watch the log\)\n {2}- background shell "sleep 600"/,
    );
    t.ok(
      first.indexOf('Before you go on') < first.indexOf('The handoff document:'),
      'the re-arming comes before the document',
    );
  },
);

t.test('/clear empties the task list it carries; the crons of the same process stay', async (t) => {
  const use = (id: string, name: string, input: unknown) => ({
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
  });
  const result = (id: string, toolUseResult: unknown) => ({
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] },
    toolUseResult,
  });
  const w = startWorld();
  const sid = await started(w);
  w.append(sid, [
    prompt('build the thing'),
    use('a', 'TaskCreate', { subject: 'Old task', description: 'd' }),
    result('a', { task: { id: '1', subject: 'Old task', description: 'd' } }),
    use('b', 'CronCreate', { cron: '*/5 * * * *', prompt: 'look', recurring: true }),
    result('b', { id: 'c1', humanSchedule: 'Every 5 minutes', recurring: true, durable: false }),
  ]);
  await w.hook('SessionStart', {
    session_id: 'cleared-1',
    source: 'clear',
    transcript_path: '/config/projects/-p/cleared-1.jsonl',
  });
  await settle(); // the new transcript is followed
  w.append('cleared-1', [prompt('after the clear'), response(155_000, 'crossed')]);
  t.equal(
    block(await w.hook('Stop', { session_id: 'cleared-1', last_assistant_message: 'crossed' }))?.decision,
    'block',
  );
  w.append('cleared-1', [response(160_000, COMPLETE_DOC)]);
  await w.hook('Stop', { session_id: 'cleared-1', last_assistant_message: COMPLETE_DOC });
  await settle();
  const frozen = w.documents.get('/p/.flower/notes/doc.md') ?? '';
  t.notMatch(frozen, /Old task/, 'the task list went with /clear');
  t.match(
    frozen,
    /\n- session cron \*\/5 \* \* \* \* \(Every 5 minutes\), recurring, prompt "look"; the successor creates it again/,
  );
});

t.test(
  "a document edited over the ceiling during review: refused in one line, the model's version seeds the successor",
  async (t) => {
    const w = startWorld({ reviewMs: 10_000 });
    await inReview(t, w);
    // the person's editor leaves 100 MB in the file
    w.oversized = 100 * 1024 * 1024;
    await w.clock.advance(10_000);
    await settle();
    t.equal(w.children.length, 2, 'the successor started');
    t.match(w.child().prompt, /TAKING OVER[\s\S]*building the thing/, "from the model's version");
    const line = w.said.find((text) => /100\.0 MB, more than the 1 MB a handoff document may be/.test(text));
    t.ok(line, 'the person is told');
    t.equal(line?.split('\n').length, 1, 'in one line');
    t.match(line, /your file is kept as it is/);
    w.command('quit');
    await w.loop.done;
  },
);
