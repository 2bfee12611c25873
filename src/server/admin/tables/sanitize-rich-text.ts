import sanitizeHtml from 'sanitize-html';

/**
 * Stored rich text is untrusted HTML (DESIGN.md): it keeps what Quill 2's snow editor writes,
 * both its semantic HTML and its editor markup, and nothing that can run script or load
 * anything but http(s) media.
 */

const IMAGE_SOURCE = /^(?:https?:\/\/|data:image\/(?:png|jpeg|gif);base64,[a-z0-9+/=\s]*$)/i;
const VIDEO_SOURCE = /^https?:\/\//i;
const LIST_TYPES = new Set(['bullet', 'ordered', 'checked', 'unchecked']);

const quillClasses = [
  ...Array.from({ length: 8 }, (_, i) => `ql-indent-${i + 1}`),
  'ql-align-center',
  'ql-align-right',
  'ql-align-justify',
  'ql-direction-rtl',
  'ql-size-small',
  'ql-size-large',
  'ql-size-huge',
  'ql-font-serif',
  'ql-font-monospace',
  'ql-syntax',
  'ql-video',
  'ql-ui',
  'ql-code-block-container',
  'ql-code-block',
];

// allowedEmptyAttributes is in sanitize-html 2.17, not yet in its type definitions.
const options: sanitizeHtml.IOptions & { allowedEmptyAttributes: string[] } = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'em',
    'u',
    's',
    'sub',
    'sup',
    'a',
    'img',
    'ol',
    'ul',
    'li',
    'h1',
    'h2',
    'h3',
    'blockquote',
    'pre',
    'code',
    'span',
    'div',
    'iframe',
  ],
  allowedAttributes: {
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    li: ['data-list'],
    pre: ['data-language', 'spellcheck'],
    div: ['data-language', 'spellcheck'],
    iframe: ['src', 'frameborder', 'allowfullscreen', 'width', 'height'],
  },
  allowedClasses: { '*': quillClasses },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'], iframe: ['http', 'https'] },
  allowProtocolRelative: false,
  // A refused image source stays as a blank source (SPEC.md §5), not as an image of nothing.
  allowedEmptyAttributes: ['alt', 'src'],
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' },
    }),
    img: (tagName, attribs) => {
      const src = (attribs.src ?? '').trim();
      return { tagName, attribs: { ...attribs, src: IMAGE_SOURCE.test(src) ? src : '' } };
    },
    li: (tagName, { 'data-list': list, ...attribs }) => ({
      tagName,
      attribs: list && LIST_TYPES.has(list) ? { ...attribs, 'data-list': list } : attribs,
    }),
  },
  // A video is only Quill's iframe, and only with an http(s) source.
  exclusiveFilter: (frame) =>
    frame.tag === 'iframe' &&
    !(
      VIDEO_SOURCE.test(frame.attribs.src ?? '') &&
      (frame.attribs.class ?? '').split(/\s+/).includes('ql-video')
    ),
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, options);
}
