import {
  AlertTriangle,
  CheckCircle2,
  Clock,
  Download,
  Mail,
  RotateCw,
  SearchCheck,
  XCircle,
} from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { sessionIdSchema, type SessionStatus } from '../../../shared/orders/order-api';
import { paths } from '../../../shared/paths';
import { useOffer, useStoreContent } from '../../routing/public-config';
import { Link, useLocation } from '../../routing/router';
import { primaryButton, secondaryButton } from '../../components/styles';
import { CheckoutLink } from '../../components/checkout-link';
import { Spinner } from '../../components/spinner';
import { recordPurchaseOnce } from './purchase-conversion';
import { ResendLinkForm } from './resend-link-form';
import { useSessionStatus } from './use-session-status';

const card = 'mt-10 rounded-3xl border border-sand-300 bg-white p-6 text-left shadow-sm sm:p-8';

/** The Checkout session the Payment Link sent the buyer back with, if it is a valid id. */
function sessionIdFrom(search: string): string | undefined | null {
  const raw = new URLSearchParams(search).get('session_id');
  if (raw === null) return undefined;
  const parsed = sessionIdSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

function ContactSupport({ children = 'Trouble downloading or a question about your bundle?' }) {
  return (
    <p className="mt-8 text-center text-ink-muted">
      {children} Please <Link to={paths.contactUs}>contact support</Link> and we will help you.
    </p>
  );
}

function Outcome({
  icon,
  title,
  children,
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="text-center">
      {icon}
      <h1 className="mt-6 font-serif text-4xl text-sage-800 sm:text-5xl">{title}</h1>
      {children}
    </div>
  );
}

const iconClass = 'mx-auto h-16 w-16';

/** Each state's heading, also announced to screen readers as the state changes. */
const titles = {
  confirming: 'Confirming your payment…',
  unconfirmed: 'We could not confirm your payment yet',
  pending: 'We could not confirm your payment yet',
  failed: 'Your payment did not go through',
  review: 'We are checking your payment',
  refunded: 'This order was refunded',
  disputed: 'This payment is disputed',
} as const;

function Paid({
  sessionId,
  session,
}: {
  sessionId: string;
  session: Extract<SessionStatus, { status: 'paid' }>;
}) {
  const { product, thankYou } = useStoreContent();
  const offer = useOffer();
  useEffect(() => recordPurchaseOnce(sessionId, offer), [sessionId, offer]);
  return (
    <>
      <Outcome
        icon={<CheckCircle2 aria-hidden="true" className={`${iconClass} text-sage-600`} />}
        title={thankYou.title}
      >
        <p className="mt-5 text-lg text-ink-muted">
          Your <strong className="font-semibold text-ink">{product.name}</strong> is ready.{' '}
          {thankYou.text}
        </p>
      </Outcome>
      <div className={card}>
        <p className="flex items-start gap-3 text-ink">
          <Mail aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-sage-700" />
          <span>
            We sent your download link to{' '}
            <strong className="font-semibold break-all">{session.maskedEmail}</strong>, so you can
            come back to your files at any time.
          </span>
        </p>
        {session.downloadUrl ? (
          <div className="mt-8 text-center">
            <a href={session.downloadUrl} className={primaryButton}>
              <Download aria-hidden="true" className="h-5 w-5" />
              Download Now
            </a>
          </div>
        ) : (
          <p className="mt-4 text-ink-muted">
            Please use the link in that email to download your bundle.
          </p>
        )}
      </div>
      <ResendLinkForm title="No email from us?" className={card} />
      <ContactSupport />
    </>
  );
}

function Confirming() {
  return (
    <Outcome icon={<Spinner className={`${iconClass} text-sage-600`} />} title={titles.confirming}>
      <p className="mt-5 text-lg text-ink-muted">
        This usually takes a few seconds. Please keep this page open.
      </p>
    </Outcome>
  );
}

function Unconfirmed({ onRetry }: { onRetry?: () => void }) {
  return (
    <>
      <Outcome
        icon={<Clock aria-hidden="true" className={`${iconClass} text-sage-600`} />}
        title={titles.unconfirmed}
      >
        <p className="mt-5 text-lg text-ink-muted">
          If you completed the checkout, your payment may still be on its way to us. As soon as it
          is confirmed, we email you your download link.
        </p>
        {onRetry ? (
          <button type="button" onClick={onRetry} className={`${secondaryButton} mt-8`}>
            <RotateCw aria-hidden="true" className="h-5 w-5" />
            Check again
          </button>
        ) : null}
      </Outcome>
      <ResendLinkForm className={card} />
      <ContactSupport>No email after an hour?</ContactSupport>
    </>
  );
}

function Settled({ sessionId, session }: { sessionId: string; session: SessionStatus }) {
  switch (session.status) {
    case 'paid':
      return <Paid sessionId={sessionId} session={session} />;
    case 'pending':
      return <Unconfirmed />;
    case 'failed':
      return (
        <>
          <Outcome
            icon={<XCircle aria-hidden="true" className={`${iconClass} text-red-700`} />}
            title={titles.failed}
          >
            <p className="mt-5 text-lg text-ink-muted">
              The payment was not completed, so no order was placed. You are welcome to try the
              checkout again.
            </p>
            <CheckoutLink source="thank_you" className={`${primaryButton} mt-8`}>
              Try the checkout again
            </CheckoutLink>
          </Outcome>
          <ContactSupport>Was your card charged anyway?</ContactSupport>
        </>
      );
    case 'review':
      return (
        <>
          <Outcome
            icon={<SearchCheck aria-hidden="true" className={`${iconClass} text-sage-600`} />}
            title={titles.review}
          >
            <p className="mt-5 text-lg text-ink-muted">
              Your payment needs a quick check on our side. We will email you as soon as it is done;
              there is no need to pay again.
            </p>
          </Outcome>
          <ContactSupport>A question in the meantime?</ContactSupport>
        </>
      );
    case 'refunded':
    case 'disputed':
      return (
        <>
          <Outcome
            icon={<AlertTriangle aria-hidden="true" className={`${iconClass} text-amber-700`} />}
            title={titles[session.status]}
          >
            <p className="mt-5 text-lg text-ink-muted">
              {session.status === 'refunded'
                ? 'The order was refunded, so its download is closed.'
                : 'A dispute was opened for this payment, so its download is closed.'}
            </p>
          </Outcome>
          <ContactSupport>Think this is a mistake?</ContactSupport>
        </>
      );
  }
}

function Confirmation({ sessionId }: { sessionId: string }) {
  const { confirmation, retry } = useSessionStatus(sessionId);
  const { thankYou } = useStoreContent();
  const announcement =
    confirmation.phase !== 'settled'
      ? titles[confirmation.phase]
      : confirmation.session.status === 'paid'
        ? thankYou.title
        : titles[confirmation.session.status];
  return (
    <div aria-busy={confirmation.phase === 'confirming'}>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {confirmation.phase === 'confirming' ? (
        <Confirming />
      ) : confirmation.phase === 'unconfirmed' ? (
        <Unconfirmed onRetry={retry} />
      ) : (
        <Settled sessionId={sessionId} session={confirmation.session} />
      )}
    </div>
  );
}

/** A visit without a Checkout session: where the download is, never the download itself. */
function FindYourDownload() {
  const { product } = useStoreContent();
  return (
    <>
      <Outcome
        icon={<Mail aria-hidden="true" className={`${iconClass} text-sage-600`} />}
        title="Looking for your download?"
      >
        <p className="mt-5 text-lg text-ink-muted">
          After your purchase we email you a link to download your{' '}
          <strong className="font-semibold text-ink">{product.name}</strong>. Please look in your
          inbox (and spam folder) for it, or ask for a new link below.
        </p>
      </Outcome>
      <ResendLinkForm className={card} />
      <ContactSupport />
    </>
  );
}

/**
 * The thank-you page with verified purchases (DESIGN.md "Selling for real"): it confirms the
 * payment with the server before it says thank you or offers the download.
 */
export function VerifiedThankYou() {
  const sessionId = sessionIdFrom(useLocation().search);
  if (sessionId === undefined) return <FindYourDownload />;
  if (sessionId === null) return <Unconfirmed />;
  return <Confirmation key={sessionId} sessionId={sessionId} />;
}
