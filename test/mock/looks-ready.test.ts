// looksReady: the screen test other real-claude tests use for "idle and taking input" (screens as captured
// from claude 2.1.332 at 120 columns, shortened).
import t from 'tap';
import { looksReady } from '../helpers/real-claude.js';

const rule = '─'.repeat(40);
const box = (prompt: string, footer: string): string => `● done\n\n${rule}\n${prompt}\n${rule}\n  ${footer}`;

t.test('idle prompts are ready, with or without a placeholder or draft', async (tt) => {
  tt.ok(looksReady(box('❯', '⏵⏵ bypass permissions on (shift+tab to cycle)')), 'empty prompt (trailing space trimmed)');
  tt.ok(looksReady(box('❯ Once fixed, resend your message', '⏵⏵ bypass permissions on (shift+tab to cycle)')));
  tt.ok(looksReady(box('❯ Resend your message to try again', '⏵⏵ bypass permissions on (shift+tab to cycle)')));
});

t.test('a busy turn, a modal or no prompt box is not ready', async (tt) => {
  tt.notOk(looksReady(box('❯', '⏵⏵ bypass permissions on (shift+tab to cycle) · esc to interrupt · ← for agents')));
  tt.notOk(looksReady(box('❯ 1. Yes', 'Enter to confirm · Esc to cancel')));
  tt.notOk(looksReady(' ▐▛███▛█   Claude Code v2.1.332\n'), 'the start-up logo alone');
  tt.notOk(looksReady(`${rule}\n❯ two\nlines\n${rule}`), 'a prompt line must sit directly between the rules');
});
