import { Check } from 'lucide-react';
import deckImage from '../../images/thought-healing-deck.svg';
import journalImage from '../../images/daily-presence-journal.svg';
import quoteCardsImage from '../../images/oracle-quote-cards.svg';
import ritualImage from '../../images/evening-calm-ritual.svg';
import trackerImage from '../../images/ritual-tracker.svg';
import workbookImage from '../../images/inner-peace-workbook.svg';

type Product = {
  id: string;
  label: string;
  title: string;
  text: string;
  points: string[];
  image: string;
  alt: string;
};

/** One section per part of the bundle, in SPEC.md's order of anchors. */
const products: Product[] = [
  {
    id: 'daily-presence-journal',
    label: 'Morning',
    title: 'Daily Presence Journal',
    text: 'Thirty guided pages that start each day with a breath, a feeling and one intention, so you meet the day instead of bracing for it.',
    points: [
      'A 5-minute morning check-in',
      'Gratitude and intention prompts',
      'Room to write freely',
    ],
    image: journalImage,
    alt: 'An open journal with a sage cover and a sprig of leaves',
  },
  {
    id: 'evening-calm-ritual',
    label: 'Evening',
    title: 'Evening Calm Ritual',
    text: 'A gentle step-by-step wind-down of breathing, release writing and a body scan that tells your nervous system the day is done.',
    points: [
      'A 10-minute bedtime sequence',
      'Breathing patterns for sleep',
      'A release page for racing thoughts',
    ],
    image: ritualImage,
    alt: 'A lit candle beside a crescent moon and a ritual card',
  },
  {
    id: 'thought-healing-deck',
    label: 'CBT-informed',
    title: 'Thought Healing Deck',
    text: 'Printable cards that walk you through noticing an anxious thought, questioning it and choosing a kinder, more balanced one.',
    points: [
      'Prompts for common thinking traps',
      'Reframes you can carry in a pocket',
      'Grounded in CBT techniques',
    ],
    image: deckImage,
    alt: 'A fanned deck of sage and sand cards with a leaf motif',
  },
  {
    id: 'oracle-quote-cards',
    label: 'Inspiration',
    title: 'Oracle-Inspired Quote Cards',
    text: 'Draw one card a day for an affirmation and a focus that shapes your mood, your choices and your energy.',
    points: ['Daily affirmations', 'A focus word for each day', 'Beautiful enough to display'],
    image: quoteCardsImage,
    alt: 'Three quote cards with a sun, a moon and a star',
  },
  {
    id: 'ritual-tracker',
    label: 'Progress',
    title: 'Ritual Tracker',
    text: 'A one-page habit tracker for all 30 days: tick off each ritual and watch calm become a habit you can see.',
    points: [
      'All five habits on one page',
      'A mood line to notice patterns',
      'Small wins, made visible',
    ],
    image: trackerImage,
    alt: 'A tracker sheet with a grid of ticked circles',
  },
  {
    id: 'inner-peace-workbook',
    label: 'Deep work',
    title: 'Inner Peace Workbook',
    text: 'Weekly reflections that help you understand your stress triggers, set boundaries and keep the calm long after the 30 days.',
    points: [
      'Four weekly reflections',
      'Boundary and trigger exercises',
      'A plan for life after day 30',
    ],
    image: workbookImage,
    alt: 'A spiral workbook with a sun rising over hills on its cover',
  },
];

export function ProductSections() {
  return (
    <>
      {products.map((item, index) => (
        <section
          key={item.id}
          id={item.id}
          aria-labelledby={`${item.id}-title`}
          className={index % 2 === 0 ? 'bg-sand-50 py-16 sm:py-20' : 'bg-white py-16 sm:py-20'}
        >
          <div className="mx-auto grid max-w-6xl items-center gap-10 px-6 md:grid-cols-2 md:gap-16">
            <img
              src={item.image}
              width={480}
              height={360}
              alt={item.alt}
              loading="lazy"
              decoding="async"
              className={`h-auto w-full rounded-3xl ${index % 2 === 1 ? 'md:order-2' : ''}`}
            />
            <div>
              <p className="text-sm font-semibold tracking-widest text-clay-700 uppercase">
                {item.label}
              </p>
              <h2
                id={`${item.id}-title`}
                className="mt-2 font-serif text-3xl text-sage-800 sm:text-4xl"
              >
                {item.title}
              </h2>
              <p className="mt-4 text-lg leading-relaxed text-ink-muted">{item.text}</p>
              <ul className="mt-6 space-y-3">
                {item.points.map((point) => (
                  <li key={point} className="flex items-start gap-3 text-ink">
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
