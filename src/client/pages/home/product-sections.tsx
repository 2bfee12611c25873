import { Check } from 'lucide-react';
import { ContentImage } from '../../components/content-image';
import { useStoreContent } from '../../routing/public-config';

/** One section per part of the bundle, each at its own address (SPEC.md's anchors). */
export function ProductSections() {
  const { parts } = useStoreContent();
  return (
    <>
      {parts.map((item, index) => (
        <section
          key={item.anchor}
          id={item.anchor}
          aria-labelledby={`${item.anchor}-title`}
          className={index % 2 === 0 ? 'bg-sand-50 py-16 sm:py-20' : 'bg-white py-16 sm:py-20'}
        >
          <div className="mx-auto grid max-w-6xl items-center gap-10 px-6 md:grid-cols-2 md:gap-16">
            <ContentImage
              image={item.image}
              sizes="(min-width: 1152px) 512px, (min-width: 768px) 45vw, 90vw"
              loading="lazy"
              className={`h-auto w-full rounded-3xl ${index % 2 === 1 ? 'md:order-2' : ''}`}
            />
            <div>
              <p className="text-sm font-semibold tracking-widest text-clay-700 uppercase">
                {item.label}
              </p>
              <h2
                id={`${item.anchor}-title`}
                className="mt-2 font-serif text-3xl text-sage-800 sm:text-4xl"
              >
                {item.title}
              </h2>
              <p className="mt-4 text-lg leading-relaxed text-ink-muted">{item.text}</p>
              <ul className="mt-6 space-y-3">
                {item.points.map((point, pointIndex) => (
                  <li key={pointIndex} className="flex items-start gap-3 text-ink">
                    <Check aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-sage-600" />
                    {point}
                  </li>
                ))}
              </ul>
            </div>
          </div>
        </section>
      ))}
    </>
  );
}
