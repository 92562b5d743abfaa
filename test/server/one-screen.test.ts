// One screen per run: the split views the run server draws paint claude from its one emulator (the
// screen model) and parse nothing themselves; a key typed in one reaches claude once, and the
// emulator, which none of their terminals stands in for, answers claude's queries.
import t from 'tap';
import { createScreenModel } from '../../src/server/screen-model.js';
import { recordingKeys } from '../helpers/recording-keys.js';
import { PERSON_KEYS } from '../../src/runtime/claude-keys.js';
import { openTerminalFace, type TerminalFace } from '../../src/server/terminal-face.js';
import { WIRE_VERSION, type Hello } from '../../src/server/wire.js';
import { personTerminal } from '../helpers/person-terminal.js';
import { untilWithin } from '../helpers/poll.js';

const until = untilWithin(10_000, 10);

t.test(
  'two split views drawn from the one screen: both show what it parsed, neither parses the stream itself',
  async (t) => {
    const model = createScreenModel({ cols: 98, rows: 20 });
    t.teardown(() => model.dispose());
    const replies: string[] = [];
    model.onReply((d) => replies.push(d));
    const people = [personTerminal(t), personTerminal(t)];
    const claude = recordingKeys({ echoFirst: false });
    const typed = claude.written;
    const faces: TerminalFace[] = [];
    for (const person of people) {
      const hello: Hello = {
        t: 'hello',
        version: WIRE_VERSION,
        role: 'attach',
        cols: 100,
        rows: 30,
        face: 'split',
        tty: person.path,
        term: 'xterm-256color',
      };
      const face = await openTerminalFace({
        terminal: person.terminal,
        hello,
        documentPath: null,
        ownCommand: () => 'flower-pty',
        keys: { sink: claude.keys, from: PERSON_KEYS },
        on: {
          resized: () => undefined,
          command: () => undefined,
          detach: () => undefined,
          edit: () => undefined,
        },
        screen: model.emulator,
      });
      t.teardown(() => face.restore());
      faces.push(face);
    }
    t.ok(
      faces.every((f) => f.sharesScreen),
      'both share the screen',
    );
    model.write('SHARED-LINE\r\n');
    await until('both views show the screen', () => people.every((p) => p.seen().includes('SHARED-LINE')));
    // What a face drawing its own screen would parse is not parsed here: only the one screen is drawn.
    for (const face of faces) face.show({ t: 'output', data: 'OWN-PARSE\r\n' });
    model.write('AFTER-LINE\r\n');
    await until('both views show what came after', () => people.every((p) => p.seen().includes('AFTER-LINE')));
    t.notOk(
      people.some((p) => p.seen().includes('OWN-PARSE')),
      'no face parsed the stream itself',
    );
    people[0]!.type('x');
    await until('the key', () => typed.length > 0);
    await new Promise((r) => setTimeout(r, 100));
    t.same(typed, ['x'], 'a key reaches claude once');
    t.same(replies, [], 'a typed key is no reply of the screen');
    let parsed = false;
    model.emulator.term.write('e', () => (parsed = true));
    t.ok(parsed, "the write after a person's key (its echo) is parsed before write() returns, not a timer later");
    let later = false;
    model.emulator.term.write('f', () => (later = true));
    t.notOk(later, 'the next write, with no key before it, waits for its timer as before');
    await until('the later write', () => later);
    model.write('\u001b[6n');
    await until('the screen answers a cursor query', () => replies.length > 0);
    t.match(replies[0], /^\u001b\[\d+;\d+R$/);
  },
);
