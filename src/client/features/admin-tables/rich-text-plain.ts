const BLOCKS = 'p, div, li, h1, h2, h3, h4, h5, h6, blockquote, pre, tr';

/** Parses stored HTML in an inert document (nothing runs or loads), never the live page. */
function parse(html: string): HTMLElement {
  return new DOMParser().parseFromString(html, 'text/html').body;
}

/** The text of stored rich text, one line per block. */
export function richTextToPlain(html: string): string {
  const body = parse(html);
  for (const br of body.querySelectorAll('br')) br.replaceWith('\n');
  for (const block of body.querySelectorAll(BLOCKS)) block.append('\n');
  return (body.textContent ?? '')
    .replaceAll('\u00a0', ' ')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** True when rich text holds neither text nor an image (an editor's empty `<p><br></p>`). */
export function isEmptyRichText(html: string): boolean {
  const body = parse(html);
  return (body.textContent ?? '').trim() === '' && !body.querySelector('img, iframe, video');
}
