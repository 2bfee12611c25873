import type { ReactNode } from 'react';

type SectionHeadingProps = {
  id: string;
  eyebrow?: string;
  title: string;
  children?: ReactNode;
  align?: 'center' | 'left';
};

/** The small label, h2 and intro that open each home section. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  children,
  align = 'center',
}: SectionHeadingProps) {
  const alignment = align === 'center' ? 'mx-auto text-center' : '';
  return (
    <div className={`max-w-2xl ${alignment}`}>
      {eyebrow ? (
        <p className="text-sm font-semibold tracking-widest text-clay-700 uppercase">{eyebrow}</p>
      ) : null}
      <h2 id={id} className="mt-2 font-serif text-3xl leading-tight text-sage-800 sm:text-4xl">
        {title}
      </h2>
      {children ? (
        <div className="mt-4 text-lg leading-relaxed text-ink-muted">{children}</div>
      ) : null}
    </div>
  );
}
