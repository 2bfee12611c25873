import { CloudRain, MoonStar, Repeat, Wind } from 'lucide-react';
import { useStoreContent } from '../../routing/public-config';
import { SectionHeading } from './section-heading';

/** The struggles' icons, in turn. */
const icons = [Repeat, MoonStar, Wind, CloudRain];

export function ProblemSection() {
  const { problem } = useStoreContent();
  return (
    <section id="problem" aria-labelledby="problem-title" className="bg-sand-50 py-20">
      <div className="mx-auto max-w-6xl px-6">
        <SectionHeading id="problem-title" eyebrow={problem.eyebrow} title={problem.title}>
          <p>{problem.text}</p>
        </SectionHeading>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {problem.items.map(({ title, text }, index) => {
            const Icon = icons[index % icons.length]!;
            return (
              <li key={index} className="rounded-2xl border border-sand-300 bg-white p-6">
                <Icon aria-hidden="true" className="h-7 w-7 text-clay-700" />
                <h3 className="mt-4 text-lg font-semibold text-ink">{title}</h3>
                <p className="mt-2 leading-relaxed text-ink-muted">{text}</p>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
