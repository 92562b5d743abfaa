// Escaping for HTML and SVG text and attributes. Everything that comes from a document, a prompt, a
// transcript or a file name goes through here before it reaches the report page.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// Also drops the C0 controls (but tab and newline) that no page can show and XML forbids.
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
}
