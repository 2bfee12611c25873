import type { ReactNode } from 'react';
import { useScrollToTop } from '../lib/use-scroll-to-top';
import { PageHeader } from './page-header';
import { SiteFooter } from './site-footer';

type StaticPageProps = {
  title: string;
  /** A line under the title, e.g. the last-updated date. */
  lead?: ReactNode;
  children?: ReactNode;
};

/** The layout of the public inner pages: sticky header, one h1, content, footer. */
export function StaticPage({ title, lead, children }: StaticPageProps) {
  useScrollToTop();
  return (
    <>
      <PageHeader title={title} />
      <main className="mx-auto max-w-3xl px-6 pt-12 pb-20 sm:pt-16">
        <h1 className="font-serif text-4xl text-sage-800 sm:text-5xl">{title}</h1>
        {lead ? <div className="mt-4 text-ink-muted">{lead}</div> : null}
        {children}
      </main>
      <SiteFooter />
    </>
  );
}

/** One titled section of a policy page. */
export function PolicySection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-10">
      <h2 className="font-serif text-2xl text-sage-800">{title}</h2>
      <div className="mt-3 space-y-4 leading-relaxed text-ink">{children}</div>
    </section>
  );
}
