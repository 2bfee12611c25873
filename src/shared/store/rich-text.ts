/**
 * The policy pages' rich text, parsed into blocks the page renders as elements: "## " a
 * section heading, "- " list items, "> " a highlighted note, anything else paragraphs
 * (a blank line between them); inside, **bold** and [text](target). No HTML ever passes.
 */
export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'strong'; text: string }
  | { kind: 'link'; text: string; href: string };

export type Block =
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; inline: Inline[] }
  | { kind: 'note'; inline: Inline[] }
  | { kind: 'list'; items: Inline[][] };

/** A run of blocks under one heading (none for what comes before the first). */
export type RichSection = { title?: string; blocks: Block[] };

/** A link target in rich text: a page of this site ("/contact-us"), a web address or an email. */
export const RICH_TEXT_LINK = /^(\/[a-z0-9\-/#]*|https?:\/\/[^\s()]+|mailto:[^\s()]+)$/i;

const INLINE = /\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)\s]*)\)/g;

export function parseInline(text: string): Inline[] {
  const parts: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) parts.push({ kind: 'text', text: text.slice(last, match.index) });
    if (match[1] !== undefined) {
      parts.push({ kind: 'strong', text: match[1] });
    } else if (RICH_TEXT_LINK.test(match[3]!)) {
      parts.push({ kind: 'link', text: match[2]!, href: match[3]! });
    } else {
      parts.push({ kind: 'text', text: match[2]! });
    }
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

export function parseRichText(source: string): Block[] {
  const blocks: Block[] = [];
  let lines: string[] = [];
  let open: 'paragraph' | 'note' | 'list' | undefined;

  function close() {
    if (open === 'list') {
      blocks.push({ kind: 'list', items: lines.map(parseInline) });
    } else if (open) {
      blocks.push({ kind: open, inline: parseInline(lines.join(' ')) });
    }
    lines = [];
    open = undefined;
  }

  for (const raw of source.replaceAll('\r\n', '\n').split('\n')) {
    const line = raw.trim();
    const kind = line.startsWith('- ') ? 'list' : line.startsWith('> ') ? 'note' : 'paragraph';
    if (line === '' || line.startsWith('## ') || kind !== open) close();
    if (line === '') continue;
    if (line.startsWith('## ')) {
      blocks.push({ kind: 'heading', text: line.slice(3).trim() });
      continue;
    }
    open = kind;
    lines.push(kind === 'paragraph' ? line : line.slice(2).trim());
  }
  close();
  return blocks;
}

/** The blocks grouped by their headings, as the policy pages lay them out. */
export function richSections(source: string): RichSection[] {
  const sections: RichSection[] = [];
  for (const block of parseRichText(source)) {
    if (block.kind === 'heading') {
      sections.push({ title: block.text, blocks: [] });
    } else {
      if (sections.length === 0) sections.push({ blocks: [] });
      sections[sections.length - 1]!.blocks.push(block);
    }
  }
  return sections;
}
