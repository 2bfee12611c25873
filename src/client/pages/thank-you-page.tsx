import { CheckCircle2, Download, Mail } from 'lucide-react';
import { useEffect } from 'react';
import { usePageView } from '../analytics/use-page-view';
import { usePublicConfig } from '../routing/public-config';
import { Link } from '../routing/router';
import { primaryButton } from '../components/styles';
import { PageHeader } from '../components/page-header';
import { SiteFooter } from '../components/site-footer';
import { recordPurchase } from '../features/orders/purchase-conversion';
import { VerifiedThankYou } from '../features/orders/verified-thank-you';
import { useScrollToTop } from '../lib/use-scroll-to-top';
import { paths } from '../../shared/paths';

export function ThankYouPage() {
  const { verifiedPurchases, offer } = usePublicConfig();
  usePageView('thank_you');
  useScrollToTop();
  // Here rather than in the seed's page below, so the conversion follows the page view as it
  // always has (a child's effects run before its parent's).
  useEffect(() => {
    if (!verifiedPurchases) recordPurchase(offer);
  }, [verifiedPurchases, offer]);

  return verifiedPurchases ? (
    <div className="flex min-h-dvh flex-col">
      <PageHeader title="Your purchase" />
      <main className="mx-auto w-full max-w-2xl flex-1 px-6 py-16 sm:py-24">
        <VerifiedThankYou />
      </main>
      <SiteFooter />
    </div>
  ) : (
    <>
      <PageHeader title="Your purchase" />
      <UnverifiedThankYou />
      <SiteFooter />
    </>
  );
}

/** The seed's page: thanks on arrival and the configured DOWNLOAD_URL, with nothing checked. */
function UnverifiedThankYou() {
  const { downloadUrl, store } = usePublicConfig();
  const { product, thankYou } = store;

  return (
    <main className="mx-auto max-w-2xl px-6 py-16 text-center sm:py-24">
      <CheckCircle2 aria-hidden="true" className="mx-auto h-16 w-16 text-sage-600" />
      <h1 className="mt-6 font-serif text-4xl text-sage-800 sm:text-5xl">{thankYou.title}</h1>
      <p className="mt-5 text-lg text-ink-muted">
        Your <strong className="font-semibold text-ink">{product.name}</strong> is ready.{' '}
        {thankYou.text}
      </p>
      <div className="mt-10 rounded-3xl border border-sand-300 bg-white p-8 text-left shadow-sm">
        <p className="flex items-start gap-3 text-ink">
          <Mail aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-sage-700" />
          You will also receive an email with your download link shortly, so you can come back to
          your files at any time.
        </p>
        <div className="mt-8 text-center">
          <a href={downloadUrl} target="_blank" rel="noopener noreferrer" className={primaryButton}>
            <Download aria-hidden="true" className="h-5 w-5" />
            Download Now
          </a>
        </div>
      </div>
      <p className="mt-8 text-ink-muted">
        Trouble downloading or a question about your bundle? Please{' '}
        <Link to={paths.contactUs}>contact support</Link> and we will help you.
      </p>
    </main>
  );
}
