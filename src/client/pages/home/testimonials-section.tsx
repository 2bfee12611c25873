import { ContentImage } from '../../components/content-image';
import { FiveStars } from '../../components/five-stars';
import { useStoreContent } from '../../routing/public-config';
import { SectionHeading } from './section-heading';

export function TestimonialsSection() {
  const { testimonials } = useStoreContent();
  if (testimonials.items.length === 0) return null;
  return (
    <section id="testimonials" aria-labelledby="testimonials-title" className="bg-sand-100 py-20">
      <div className="mx-auto max-w-6xl px-6">
        <SectionHeading
          id="testimonials-title"
          eyebrow={testimonials.eyebrow}
          title={testimonials.title}
        />
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {testimonials.items.map((item, index) => (
            <li key={index}>
              <figure className="flex h-full flex-col rounded-3xl bg-white p-7 shadow-sm">
                <FiveStars />
                <blockquote className="mt-4 flex-1 text-lg leading-relaxed text-ink">
                  <p>“{item.quote}”</p>
                </blockquote>
                <figcaption className="mt-6 flex items-center gap-4">
                  {item.portrait && (
                    <ContentImage
                      image={item.portrait}
                      sizes="56px"
                      loading="lazy"
                      className="h-14 w-14 rounded-full object-cover"
                    />
                  )}
                  <span>
                    <span className="block font-semibold text-ink">{item.name}</span>
                    {item.detail && (
                      <span className="block text-sm text-ink-muted">{item.detail}</span>
                    )}
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
        {testimonials.note && (
          <p className="mt-8 text-center text-sm text-ink-muted">{testimonials.note}</p>
        )}
      </div>
    </section>
  );
}
