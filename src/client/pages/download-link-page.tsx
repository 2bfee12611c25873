import { Ban, Clock, Link2Off, Repeat } from 'lucide-react';
import type { ReactNode } from 'react';
import { linkProblems, type LinkProblem } from '../../shared/orders/order-api';
import { paths } from '../../shared/paths';
import { usePageView } from '../analytics/use-page-view';
import { Link, useLocation } from '../routing/router';
import { PageHeader } from '../components/page-header';
import { SiteFooter } from '../components/site-footer';
import { useScrollToTop } from '../lib/use-scroll-to-top';
import { ResendLinkForm } from '../features/orders/resend-link-form';

const iconClass = 'mx-auto h-14 w-14 text-sage-600';

const explanations: Record<LinkProblem, { icon: ReactNode; title: string; text: string }> = {
  expired: {
    icon: <Clock aria-hidden="true" className={iconClass} />,
    title: 'This download link has expired',
    text: 'For your security, each download link works only for a limited time after we send it. Ask for a new one below and we will email it to you.',
  },
  used: {
    icon: <Repeat aria-hidden="true" className={iconClass} />,
    title: 'This download link has been used up',
    text: 'Each link can download the bundle a limited number of times, and this one has reached its download limit. Ask for a new one below.',
  },
  revoked: {
    icon: <Ban aria-hidden="true" className={iconClass} />,
    title: 'This download is no longer available',
    text: 'The order this link belongs to was refunded or disputed, so its download is closed.',
  },
  invalid: {
    icon: <Link2Off aria-hidden="true" className={iconClass} />,
    title: 'This download link is not valid',
    text: 'The link may be incomplete: some email programs break long links. Please open the whole link from the email again, or ask for a new one below.',
  },
};

/** The reason in the address; an unknown or missing one reads as an invalid link. */
function problemFrom(search: string): LinkProblem {
  const reason = new URLSearchParams(search).get('reason');
  return linkProblems.find((problem) => problem === reason) ?? 'invalid';
}

/** Where the server sends a download link that cannot be used: why, and how to get a new one. */
export function DownloadLinkPage() {
  usePageView('download_link');
  useScrollToTop();
  const problem = problemFrom(useLocation().search);
  const { icon, title, text } = explanations[problem];

  return (
    <div className="flex min-h-dvh flex-col">
      <PageHeader title="Your download" />
      <main className="mx-auto w-full max-w-2xl flex-1 px-6 py-16 sm:py-24">
        <div className="text-center">
          {icon}
          <h1 className="mt-6 font-serif text-3xl text-sage-800 sm:text-4xl">{title}</h1>
          <p className="mt-5 text-lg text-ink-muted">{text}</p>
        </div>
        {problem === 'revoked' ? null : (
          <ResendLinkForm className="mt-10 rounded-3xl border border-sand-300 bg-white p-6 shadow-sm sm:p-8" />
        )}
        <p className="mt-8 text-center text-ink-muted">
          {problem === 'revoked'
            ? 'Think this is a mistake?'
            : 'Still cannot download your bundle?'}{' '}
          Please <Link to={paths.contactUs}>contact support</Link> and we will help you.
        </p>
      </main>
      <SiteFooter />
    </div>
  );
}
