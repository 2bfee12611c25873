import { Fragment } from 'react';
import { Link } from '../routing/router';
import { richSections, type Block, type Inline } from '../../shared/store/rich-text';
import { PolicySection } from './static-page';

function InlineText({ parts }: { parts: Inline[] }) {
  return parts.map((part, index) => {
    switch (part.kind) {
      case 'strong':
        return <strong key={index}>{part.text}</strong>;
      case 'link':
        return part.href.startsWith('/') ? (
          <Link key={index} to={part.href}>
            {part.text}
          </Link>
        ) : (
          <a key={index} href={part.href} rel="noopener noreferrer">
            {part.text}
          </a>
        );
      default:
        return <Fragment key={index}>{part.text}</Fragment>;
    }
  });
}

function RichBlock({ block }: { block: Block }) {
  switch (block.kind) {
    case 'list':
      return (
        <ul className="list-disc space-y-2 pl-6">
          {block.items.map((item, index) => (
            <li key={index}>
              <InlineText parts={item} />
            </li>
          ))}
        </ul>
      );
    case 'note':
      return (
        <p className="mt-8 rounded-2xl border border-clay-200 bg-clay-50 p-5 text-lg text-ink">
          <InlineText parts={block.inline} />
        </p>
      );
    case 'paragraph':
      return (
        <p>
          <InlineText parts={block.inline} />
        </p>
      );
    default:
      return null;
  }
}

/** A policy page's rich text from the store content, as titled sections. */
export function PolicyText({ source }: { source: string }) {
  return richSections(source).map((section, index) => {
    const blocks = section.blocks.map((block, blockIndex) => (
      <RichBlock key={blockIndex} block={block} />
    ));
    return section.title === undefined ? (
      <div key={index} className="space-y-4 leading-relaxed text-ink">
        {blocks}
      </div>
    ) : (
      <PolicySection key={index} title={section.title}>
        {blocks}
      </PolicySection>
    );
  });
}
