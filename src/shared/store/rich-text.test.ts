import { describe, expect, it } from 'vitest';
import { parseInline, parseRichText, richSections } from './rich-text';
import { seedPolicies } from './seed-policies';

describe('rich text', () => {
  it('reads headings, paragraphs joined across lines, lists and notes', () => {
    expect(
      parseRichText(
        '> **Final.** No refunds.\n\n## Rights\nYou can ask\nfor:\n- Access\n- Erasure\n\nDone.',
      ),
    ).toEqual([
      {
        kind: 'note',
        inline: [
          { kind: 'strong', text: 'Final.' },
          { kind: 'text', text: ' No refunds.' },
        ],
      },
      { kind: 'heading', text: 'Rights' },
      { kind: 'paragraph', inline: [{ kind: 'text', text: 'You can ask for:' }] },
      {
        kind: 'list',
        items: [[{ kind: 'text', text: 'Access' }], [{ kind: 'text', text: 'Erasure' }]],
      },
      { kind: 'paragraph', inline: [{ kind: 'text', text: 'Done.' }] },
    ]);
  });

  it('makes links of site pages, web addresses and emails only; HTML stays text', () => {
    expect(parseInline('our [contact page](/contact-us).')).toEqual([
      { kind: 'text', text: 'our ' },
      { kind: 'link', text: 'contact page', href: '/contact-us' },
      { kind: 'text', text: '.' },
    ]);
    expect(parseInline('[mail](mailto:a@b.test) [web](https://x.test/a)')).toEqual([
      { kind: 'link', text: 'mail', href: 'mailto:a@b.test' },
      { kind: 'text', text: ' ' },
      { kind: 'link', text: 'web', href: 'https://x.test/a' },
    ]);
    expect(parseInline('[run](javascript:alert(1))')).toEqual([
      { kind: 'text', text: 'run' },
      { kind: 'text', text: ')' },
    ]);
    expect(parseInline('<script>alert(1)</script>')).toEqual([
      { kind: 'text', text: '<script>alert(1)</script>' },
    ]);
  });

  it('groups the seeded policies into the sections the pages had', () => {
    expect(richSections(seedPolicies.privacy).map((section) => section.title)).toEqual([
      'General Information',
      'Collecting Personal Information',
      'Cookies and Targeted Advertising',
      'Your Rights',
      'Contact',
    ]);
    const [notice, ...refund] = richSections(seedPolicies.refund);
    expect(notice!.title).toBeUndefined();
    expect(notice!.blocks[0]!.kind).toBe('note');
    expect(refund.map((section) => section.title)).toEqual([
      'Digital Product Policy',
      'Our Commitment',
      'Questions & Inquiries',
    ]);
  });
});
