// Escaping for HTML and SVG text and attributes. Everything that comes from a document, a prompt, a
// transcript or a file name goes through here before it reaches the report page.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// Also drops the C0 controls (but tab and newline) that no page can show and XML forbids.
export function escapeHtml(text: string): string {
  return text
    .replace(/[&<>"']/g, (c) => ENTITIES[c] as string)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
}

// A value as JSON inside an HTML data block (<script type="application/json">, never run): every
// `<` is written \u003c, so no text in it (a document's "</script>", a screen's "<!--") can end the
// block or open markup; JSON.parse reads it back unchanged.
export function jsonInHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
