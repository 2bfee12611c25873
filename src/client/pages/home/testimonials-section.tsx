import { FiveStars } from '../../components/five-stars';
import portraitAmelia from '../../images/portrait-amelia.svg';
import portraitNadia from '../../images/portrait-nadia.svg';
import portraitSofia from '../../images/portrait-sofia.svg';
import { SectionHeading } from './section-heading';

/** Sample testimonials (SPEC.md §1): illustrative content, said so on the page. */
const testimonials = [
  {
    image: portraitSofia,
    name: 'Sofia M.',
    location: 'Austin, Texas',
    quote:
      'By the end of the first week I was sleeping through the night again. The evening ritual is now the part of my day I look forward to most.',
  },
  {
    image: portraitAmelia,
    name: 'Amelia R.',
    location: 'Manchester, UK',
    quote:
      'The Thought Healing Deck lives in my handbag. When my mind starts racing at work, one card is enough to bring me back.',
  },
  {
    image: portraitNadia,
    name: 'Nadia K.',
    location: 'Toronto, Canada',
    quote:
      'I have tried so many apps. This is the first thing that actually fit into my life as a mum of two. Calm, simple and beautiful.',
  },
];

export function TestimonialsSection() {
  return (
    <section id="testimonials" aria-labelledby="testimonials-title" className="bg-sand-100 py-20">
      <div className="mx-auto max-w-6xl px-6">
        <SectionHeading
          id="testimonials-title"
          eyebrow="Kind words"
          title="Loved by women finding their calm"
        />
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {testimonials.map((item) => (
            <li key={item.name}>
              <figure className="flex h-full flex-col rounded-3xl bg-white p-7 shadow-sm">
                <FiveStars />
                <blockquote className="mt-4 flex-1 text-lg leading-relaxed text-ink">
                  <p>“{item.quote}”</p>
                </blockquote>
                <figcaption className="mt-6 flex items-center gap-4">
                  <img
                    src={item.image}
                    width={56}
                    height={56}
                    alt=""
                    loading="lazy"
                    decoding="async"
                    className="h-14 w-14 rounded-full"
                  />
                  <span>
                    <span className="block font-semibold text-ink">{item.name}</span>
                    <span className="block text-sm text-ink-muted">{item.location}</span>
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
        <p className="mt-8 text-center text-sm text-ink-muted">
          Illustrative testimonials with illustrated portraits; individual results vary.
        </p>
      </div>
    </section>
  );
}
