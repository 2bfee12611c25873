import { BarChart3, Brain, Eye, Moon, Sparkles } from 'lucide-react';
import { useStoreContent } from '../../routing/public-config';
import { SectionHeading } from './section-heading';

/** The habits' icons, in turn. */
const icons = [Eye, Moon, Brain, Sparkles, BarChart3];

export function SolutionSection() {
  const { solution } = useStoreContent();
  return (
    <section id="solution" aria-labelledby="solution-title" className="bg-sage-50 py-20">
      <div className="mx-auto max-w-6xl px-6">
        <SectionHeading id="solution-title" eyebrow={solution.eyebrow} title={solution.title}>
          <p>{solution.text}</p>
        </SectionHeading>
        <ul className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-5">
          {solution.items.map(({ title, text }, index) => {
            const Icon = icons[index % icons.length]!;
            return (
              <li key={index} className="rounded-2xl bg-white p-6 shadow-sm">
                <span className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-sage-100">
                  <Icon aria-hidden="true" className="h-6 w-6 text-sage-700" />
                </span>
                <h3 className="mt-4 text-lg font-semibold text-ink">{title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-ink-muted">{text}</p>
              </li>
            );
          })}
        </ul>
        <div className="mx-auto mt-14 max-w-3xl rounded-3xl border border-sage-200 bg-white p-8">
          <h3 className="text-center font-serif text-2xl text-sage-800">{solution.bundleTitle}</h3>
          <ol className="mt-6 grid gap-3 sm:grid-cols-2">
            {solution.bundleItems.map((item, index) => (
              <li key={index} className="flex items-center gap-3">
                <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-sage-700 text-sm font-semibold text-white">
                  {index + 1}
                </span>
                <span className="font-medium text-ink">{item}</span>
              </li>
            ))}
          </ol>
          <p className="mt-6 text-center text-sm text-ink-muted">{solution.bundleNote}</p>
        </div>
      </div>
    </section>
  );
}
