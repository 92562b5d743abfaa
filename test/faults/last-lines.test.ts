// A claude that dies before its first turn: the run stops with claude's own last lines.
// Claude Code's renderer moves the cursor over the gaps between words (CSI n C) instead of writing
// spaces; the line must read as it did on the screen, not "ClaudeCodemightnotbeavailableinyourcountry".
import t from 'tap';
import { startFake } from './fake-flower.js';
import { cursorMovesAsWhitespace } from '../../src/core/screen/cursor-text.js';

const ESC = '\u001b';
const rendered = `${ESC}[2K${ESC}[1GClaude${ESC}[1CCode${ESC}[1Cmight${ESC}[1Cnot${ESC}[1Cbe${ESC}[1Cavailable${ESC}[1Cin${ESC}[1Cyour${ESC}[1Ccountry.${ESC}[2;1HCheck${ESC}[1Csupported${ESC}[1Ccountries${ESC}[3Cat${ESC}[1Chttps://anthropic.com/supported-countries\r\n`;

t.test('the cursor moves are the spaces and line breaks they stand for', async (t) => {
  t.equal(cursorMovesAsWhitespace(`a${ESC}[1Cb${ESC}[3Cc`), 'a b   c');
  t.equal(cursorMovesAsWhitespace(`a${ESC}[Cb`), 'a b', 'no count is one column');
  t.equal(cursorMovesAsWhitespace(`one${ESC}[5;1Htwo${ESC}[Bthree`), 'one\ntwo\nthree');
  t.equal(cursorMovesAsWhitespace(`x${ESC}[99999Cy`), 'x        y', 'a huge move is bounded');
});

t.test("claude's last lines keep their spaces in the stop message", async (t) => {
  const f = startFake({
    t,
    script: { default: { steps: [{ print: rendered }, { exit: 1 }] } },
    prompt: 'go',
    flowerArgs: ['--review', '0'],
  });
  const exit = await f.run.exited;
  t.equal(exit.exitCode, 4, 'died before its first turn');
  const output = f.run.output().replace(/\r?\n/g, ' ');
  t.match(
    output,
    /flower-pty: claude exited with code 1 .*Its last lines: .*Claude Code might not be available in your country\. \/ Check supported countries at https:\/\/anthropic\.com\/supported-countries/,
  );
  t.notMatch(output, /ClaudeCode/);
});
