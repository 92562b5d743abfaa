// The check at the freeze reads its transcript as a stream through the dialect's fact rows: a file the session
// edited and its person's instruction are facts, a subagent's edit is not, a half-written last row is no
// fact, and a transcript past the ceiling is refused in one line.
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scoreAgainstTranscript } from '../../src/adapters/transcript-coverage.js';

let n = 0;
const prompt = (text: string) => ({ type: 'user', isSidechain: false, message: { role: 'user', content: text } });
function edit(path: string, sidechain = false): object[] {
  const id = `tu${++n}`;
  return [
    {
      type: 'assistant',
      isSidechain: sidechain,
      message: {
        id: `m${n}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id, name: 'Edit', input: { file_path: path, old_string: 'a', new_string: 'b' } }],
      },
    },
    {
      type: 'user',
      isSidechain: sidechain,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] },
      toolUseResult: {},
    },
  ];
}

const dir = mkdtempSync(join(tmpdir(), 'coverage-'));
const path = join(dir, 's.jsonl');
const rows = [
  prompt('Fix the parser. Never touch the generated lexer.'),
  ...edit('/p/src/parser.ts'),
  ...edit('/p/src/sub-only.ts', true),
];
writeFileSync(path, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n{"type":"assistant","mess`);

t.test('the edited file and the instruction are facts; a document that leaves the file out misses it', async (t) => {
  const without = await scoreAgainstTranscript(path, '## Doing\nfixing things\n');
  t.same(
    without.files,
    { found: 0, total: 1, missing: ['/p/src/parser.ts'] },
    "the main thread's edit only, not the subagent's",
  );
  t.equal(without.instructions.total, 1, "the person's instruction");
  const withFile = await scoreAgainstTranscript(
    path,
    '## Doing\nfixing src/parser.ts; never touch the generated lexer\n',
  );
  t.same([withFile.files.found, withFile.instructions.found], [1, 1]);
});

t.test('a transcript past the ceiling, or not there, is refused', async (t) => {
  await t.rejects(scoreAgainstTranscript(path, 'x', 10), /more than the 10 the check reads/);
  await t.rejects(scoreAgainstTranscript(join(dir, 'gone.jsonl'), 'x'), /ENOENT/);
});
