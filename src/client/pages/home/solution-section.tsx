import { BarChart3, Brain, Eye, Moon, Sparkles } from 'lucide-react';
import { SectionHeading } from './section-heading';

/** The five mindful habits of SPEC.md §1, each with its icon. */
const habits = [
  {
    icon: Eye,
    title: 'Daily Awareness',
    description: 'Five quiet minutes each morning to notice how you feel before the day decides.',
  },
  {
    icon: Moon,
    title: 'Evening Release',
    description: 'A short wind-down ritual that lets the day go so your body can rest.',
  },
  {
    icon: Brain,
    title: 'Thought Reframing',
    description: 'Gentle CBT-informed prompts that turn anxious loops into kinder, truer thoughts.',
  },
  {
    icon: Sparkles,
    title: 'Energetic Focus',
    description: 'One intention a day, drawn from a card, to point your energy where it matters.',
  },
  {
    icon: BarChart3,
    title: 'Self-Tracking',
    description: 'A simple tracker that makes your progress visible, one calm day at a time.',
  },
];

export const bundleItems = [
  'Daily Presence Journal',
  'Evening Calm Ritual',
  'Thought Healing Deck (CBT-informed)',
  'Oracle-Inspired Quote Cards',
  'Ritual Tracker & Inner Peace Workbook',
];

export function SolutionSection() {
  return (
    <section id="solution" aria-labelledby="solution-title" className="bg-sage-50 py-20">
      <div className="mx-auto max-w-6xl px-6">
        <SectionHeading
          id="solution-title"
          eyebrow="The solution"
          title="Five mindful habits, one calm 30-day reset"
        >
          <p>
            The Soul Reset Bundle turns mindfulness into five small daily habits that fit around a
            full life. Our 30-day promise: practise them for 30 days and you will feel calmer, sleep
            better and think more kindly of yourself.
          </p>
        </SectionHeading>
        <ul className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-5">
          {habits.map(({ icon: Icon, title, description }) => (
            <li key={title} className="rounded-2xl bg-white p-6 shadow-sm">
              <span className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-sage-100">
                <Icon aria-hidden="true" className="h-6 w-6 text-sage-700" />
              </span>
              <h3 className="mt-4 text-lg font-semibold text-ink">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-ink-muted">{description}</p>
            </li>
          ))}
        </ul>
        <div className="mx-auto mt-14 max-w-3xl rounded-3xl border border-sage-200 bg-white p-8">
          <h3 className="text-center font-serif text-2xl text-sage-800">
            What’s inside the bundle
          </h3>
          <ol className="mt-6 grid gap-3 sm:grid-cols-2">
            {bundleItems.map((item, index) => (
              <li key={item} className="flex items-center gap-3">
                <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-sage-700 text-sm font-semibold text-white">
                  {index + 1}
                </span>
                <span className="font-medium text-ink">{item}</span>
              </li>
            ))}
          </ol>
          <p className="mt-6 text-center text-sm text-ink-muted">
            Printable PDFs delivered as an instant download. No physical product is shipped.
          </p>
        </div>
      </div>
    </section>
  );
}
