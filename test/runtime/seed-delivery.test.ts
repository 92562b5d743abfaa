// How a successor's first prompt reaches the model, on fake ports: through its first UserPromptSubmit
// hook's additionalContext when it fits what a hook may carry (never the command line), else through the
// private file its short prompt names; the hook carries it once, and only to the successor it was meant for.
import t from 'tap';
import { startWorld, settle, response, prompt, turnEnd, crossAndWrite, COMPLETE_DOC } from './fake-ports.js';

t.test("a first prompt that fits: the successor's first UserPromptSubmit hook carries it whole, once", async (t) => {
  const w = startWorld({ hookContextChars: 9_500 });
  const sid2 = await crossAndWrite(w)
    .then(() => w.clock.advance(10_000))
    .then(() => w.child().sessionId);
  t.equal(w.children.length, 2);
  const successor = w.child();
  t.equal(successor.viaHook, true, 'the command line only names it');
  t.equal(w.children[0]!.viaHook, false, "generation 1 has the person's own prompt");
  t.equal(await w.hook('UserPromptSubmit', { session_id: 'someone-else', prompt: 'x' }), '', 'not to another session');
  const answer = JSON.parse(
    await w.hook('UserPromptSubmit', { session_id: sid2, prompt: 'You are TAKING OVER ...' }),
  ) as {
    hookSpecificOutput: { hookEventName: string; additionalContext: string };
  };
  t.equal(answer.hookSpecificOutput.hookEventName, 'UserPromptSubmit');
  t.equal(answer.hookSpecificOutput.additionalContext, successor.prompt, 'exactly the first prompt');
  t.match(answer.hookSpecificOutput.additionalContext, /TAKING OVER[\s\S]*building the thing/);
  t.match(w.events.find((e) => e.name === 'seed-delivered')?.fields, { generation: 2, via: 'hook' });
  t.equal(
    await w.hook('UserPromptSubmit', { session_id: sid2, prompt: 'a person types' }),
    '',
    'only the first prompt gets it',
  );
});

t.test('the old claude going while its successor is still starting takes nothing from the successor', async (t) => {
  // Seen under load: the old claude's exit came during the successor's spawn and cleared its first prompt.
  let started!: () => void;
  const successorSpawn = new Promise<void>((resolve) => {
    started = resolve;
  });
  const w = startWorld({ hookContextChars: 9_500 }, { slowExit: true, successorSpawn });
  await crossAndWrite(w);
  await w.clock.advance(10_000);
  await settle();
  t.equal(w.children.length, 1, 'the successor is still starting');
  const old = w.child();
  old.exit({ code: 0, signal: 15 });
  await settle();
  started();
  await settle();
  t.equal(w.children.length, 2);
  const successor = w.child();
  t.notOk(
    w.events.some((e) => e.name === 'child-exit'),
    "the old claude's exit decides nothing",
  );
  const answer = await w.hook('UserPromptSubmit', { session_id: successor.sessionId, prompt: 'You are TAKING OVER' });
  t.match(answer, /additionalContext/, "the successor's first prompt still carries the document");
  t.equal(w.views.at(-1)?.phase, 'working');
  w.command('quit');
  await w.loop.done;
});

t.test('a first prompt longer than a hook may carry goes through the file, and no hook answers with it', async (t) => {
  const w = startWorld({ hookContextChars: 100 });
  const sid2 = await crossAndWrite(w)
    .then(() => w.clock.advance(10_000))
    .then(() => w.child().sessionId);
  t.equal(w.child().viaHook, false);
  t.equal(await w.hook('UserPromptSubmit', { session_id: sid2, prompt: 'read the file' }), '');
});

t.test('with the hooks missing the file carries it', async (t) => {
  const w = startWorld({ hookContextChars: 9_500, hooklessAfterMs: 20_000 });
  await settle();
  const sid = w.child().sessionId;
  w.append(sid, [prompt('go'), response(155_000, 'did stuff'), turnEnd()]);
  await w.clock.advance(5_000);
  t.ok(w.events.some((e) => e.name === 'hooks-missing'));
  // The typed request goes in 300 ms after its line (a real timer).
  await new Promise((r) => setTimeout(r, 400));
  w.append(sid, [
    prompt('flower-pty: your context window is nearly full. Read the file x'),
    response(160_000, COMPLETE_DOC),
    turnEnd(),
  ]);
  await settle();
  await w.clock.advance(10_000);
  t.equal(w.children.length, 2);
  t.equal(w.child().viaHook, false, 'no hook would carry it');
});
