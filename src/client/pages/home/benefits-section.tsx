import { CheckCircle2 } from 'lucide-react';
import { useStoreContent } from '../../routing/public-config';

export function BenefitsSection() {
  const { benefits } = useStoreContent();
  return (
    <section
      id="benefits"
      aria-labelledby="benefits-title"
      className="bg-sage-800 py-20 text-white"
    >
      <div className="mx-auto max-w-6xl px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-widest text-sand-200 uppercase">
            {benefits.eyebrow}
          </p>
          <h2 id="benefits-title" className="mt-2 font-serif text-3xl leading-tight sm:text-4xl">
            {benefits.title}
          </h2>
        </div>
        <ul className="mx-auto mt-10 grid max-w-4xl gap-4 sm:grid-cols-2">
          {benefits.items.map((result, index) => (
            <li key={index} className="flex items-start gap-3 rounded-2xl bg-white/10 p-5">
              <CheckCircle2 aria-hidden="true" className="h-6 w-6 shrink-0 text-sage-200" />
              <span className="text-lg">{result}</span>
            </li>
          ))}
        </ul>
        {benefits.stats.length > 0 && (
          <dl className="mx-auto mt-14 grid max-w-4xl gap-6 text-center sm:grid-cols-3">
            {benefits.stats.map(({ figure, label }, index) => (
              <div key={index} className="rounded-2xl border border-white/20 p-6">
                <dt className="text-sand-200">{label}</dt>
                <dd className="order-first font-serif text-4xl">{figure}</dd>
              </div>
            ))}
          </dl>
        )}
      </div>
    </section>
  );
}
