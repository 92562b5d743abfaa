// CSI u keys read as the legacy bytes the same key sends without the kitty keyboard protocol.
import t from 'tap';
import { legacyKey, shiftEnterKeys } from '../../../src/core/screen/kitty-keys.js';

t.test('legacyKey', async (t) => {
  const cases: Array<[string, string, string]> = [
    ['\u001b[93;5u', '\u001d', 'C-]'],
    ['\u001b[92;5u', '\u001c', 'C-\\'],
    ['\u001b[97;5u', '\u0001', 'C-a'],
    ['\u001b[27u', '\u001b', 'Esc'],
    ['\u001b[13u', '\r', 'Enter'],
    ['\u001b[13;2u', '\r', 'shift+enter has no legacy form of its own: Enter'],
    ['\u001b[9u', '\t', 'Tab'],
    ['\u001b[127u', '\u007f', 'Backspace'],
    ['\u001b[106;3u', '\u001bj', 'Alt+j'],
    ['\u001b[97;2u', 'A', 'shift+a'],
    ['\u001b[32;5u', '\u0000', 'C-space'],
    ['\u001b[97;9u', '', 'super+a: nothing legacy'],
    ['\u001b[57441;2u', '', "a protocol's own key (left shift)"],
  ];
  for (const [sent, legacy, what] of cases) t.equal(legacyKey(sent)?.key, legacy, what);
  t.same(legacyKey('\u001b[93;5:3u'), { key: '\u001d', release: true });
  t.equal(legacyKey('\u001b[A'), null, 'not CSI u');
  t.equal(legacyKey('\u001b[1;5A'), null);
});

t.test('shiftEnterKeys: as a terminal in the modes claude asked for sends it', async (t) => {
  t.equal(shiftEnterKeys({ kitty: 5, modifyOtherKeys: 0 }), '\u001b[13;2u', 'kitty flags pushed (claude pushes 5)');
  t.equal(
    shiftEnterKeys({ kitty: 1, modifyOtherKeys: 2 }),
    '\u001b[13;2u',
    'the kitty protocol wins over modifyOtherKeys, as kitty itself does',
  );
  t.equal(shiftEnterKeys({ kitty: 0, modifyOtherKeys: 2 }), '\u001b[27;2;13~', 'modifyOtherKeys 2');
  t.equal(shiftEnterKeys({ kitty: 0, modifyOtherKeys: 1 }), '\u001b[27;2;13~', 'modifyOtherKeys 1');
  t.equal(shiftEnterKeys({ kitty: 0, modifyOtherKeys: 0 }), '\r', 'neither: what a plain terminal sends');
  t.same(
    legacyKey(shiftEnterKeys({ kitty: 5, modifyOtherKeys: 0 })),
    { key: '\r', release: false },
    'read back as Enter by our own keys',
  );
});
