import sanitizeHtml from 'sanitize-html';

const BLOCK_END = /<\/(?:p|div|li|h[1-6]|blockquote|pre|tr)\s*>/gi;
const LINE_BREAK = /<br\b[^>]*>/gi;
const ESCAPED: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"' };

/**
 * The text of stored rich text, one line per block, as the admin page's export reads it in the
 * browser (rich-text-plain.ts there): line breaks and block ends become new lines, tags go,
 * entities are decoded, no-break spaces are spaces.
 */
export function richTextToPlain(html: string): string {
  const marked = html.replace(LINE_BREAK, '\n').replace(BLOCK_END, (end) => `\n${end}`);
  const text = sanitizeHtml(marked, { allowedTags: [], allowedAttributes: {} }).replace(
    /&(?:amp|lt|gt|quot);/g,
    (entity) => ESCAPED[entity]!,
  );
  return text
    .replaceAll('\u00a0', ' ')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
