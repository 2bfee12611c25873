import { CloudRain, MoonStar, Repeat, Wind } from 'lucide-react';
import { SectionHeading } from './section-heading';

const struggles = [
  {
    icon: Repeat,
    title: 'Your mind never switches off',
    text: 'The same worries loop through your head from the first coffee to the last scroll.',
  },
  {
    icon: MoonStar,
    title: 'Evenings bring no rest',
    text: 'You lie awake replaying the day, then wake up already tired.',
  },
  {
    icon: Wind,
    title: 'You are always catching your breath',
    text: 'Work, family and everyone else’s needs come first, and you come last.',
  },
  {
    icon: CloudRain,
    title: 'Advice that never sticks',
    text: 'Apps, podcasts and books promise calm, but nothing fits into a real day.',
  },
];

export function ProblemSection() {
  return (
    <section id="problem" aria-labelledby="problem-title" className="bg-sand-50 py-20">
      <div className="mx-auto max-w-6xl px-6">
        <SectionHeading
          id="problem-title"
          eyebrow="Sound familiar?"
          title="Stress has quietly become your normal"
        >
          <p>
            Chronic stress and anxiety do not announce themselves. They settle in, one busy day at a
            time, until feeling tense and tired is simply how life feels.
          </p>
        </SectionHeading>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {struggles.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-2xl border border-sand-300 bg-white p-6">
              <Icon aria-hidden="true" className="h-7 w-7 text-clay-700" />
              <h3 className="mt-4 text-lg font-semibold text-ink">{title}</h3>
              <p className="mt-2 leading-relaxed text-ink-muted">{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
