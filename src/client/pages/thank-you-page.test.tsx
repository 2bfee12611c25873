import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  orderSessionPath,
  RESEND_LINK_PATH,
  type SessionStatus,
} from '../../shared/orders/order-api';
import { paths } from '../../shared/paths';
import { publicConfigOf, type PublicConfig } from '../../shared/public-config';
import { publicConfigDefaults } from '../../shared/public-config-defaults';
import { PublicConfigProvider } from '../routing/public-config';
import { ThankYouPage } from './thank-you-page';
import { renderAtPath } from '../../../tests/support/client/hash-route';
import { fakeApi, watchAnalytics } from '../../../tests/support/client/fake-api';
import { RECORDED_PURCHASES_KEY } from '../features/orders/purchase-conversion';
import { resendLinkSent } from '../features/orders/resend-link-form';

const config: PublicConfig = publicConfigOf(
  { downloadUrl: '/seed/download.pdf', verifiedPurchases: true, checkoutSessions: false },
  {
    ...publicConfigDefaults.store,
    product: { ...publicConfigDefaults.store.product, checkoutUrl: 'https://pay.example.com/buy' },
  },
);
const purchaseLine = '[analytics] conversion purchase {"value":27,"currency":"USD"}';

let analytics: string[];
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  localStorage.clear();
  analytics = watchAnalytics();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The server's answers to the session poll, one per request; the last one repeats. */
function sessionAnswers(...replies: (SessionStatus | 'network-error')[]) {
  let asked = 0;
  return fakeApi({
    [RESEND_LINK_PATH]: { status: 202, body: { status: 'accepted' } },
    [`${orderSessionPath('')}*`]: () => {
      const reply = replies[Math.min(asked, replies.length - 1)]!;
      asked += 1;
      return reply === 'network-error' ? reply : { status: 200, body: reply };
    },
  }).calls;
}

function showThankYou(search = '') {
  return renderAtPath(
    `${paths.thankYou}${search}`,
    <PublicConfigProvider value={config}>
      <ThankYouPage />
    </PublicConfigProvider>,
  );
}

const heading = () => screen.getByRole('heading', { level: 1 }).textContent;
const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('thank-you page with verified purchases', () => {
  it('confirms the payment, then thanks, shows the masked address and the download', async () => {
    const calls = sessionAnswers(
      { status: 'pending' },
      { status: 'pending' },
      {
        status: 'paid',
        maskedEmail: 'b•••@example.com',
        downloadUrl: '/api/orders/session/cs_test_a1/download',
      },
    );
    showThankYou('?session_id=cs_test_a1');

    expect(heading()).toBe('Confirming your payment…');
    expect(screen.getByRole('status').textContent).toBe('Confirming your payment…');
    expect(screen.queryByRole('link', { name: /Download Now/ })).toBeNull();

    await wait(1500);
    expect(heading()).toBe('Confirming your payment…');
    await wait(2000);
    expect(heading()).toBe('Thank You for Your Purchase!');
    expect(screen.getAllByRole('status')[0]!.textContent).toBe('Thank You for Your Purchase!');
    expect(calls).toEqual(Array(3).fill(`GET ${orderSessionPath('cs_test_a1')}`));
    expect(within(screen.getByRole('main')).getByText('Soul Reset Bundle')).toBeDefined();
    expect(screen.getByText(/We sent your download link to/).textContent).toContain(
      'b•••@example.com',
    );
    const download = screen.getByRole('link', { name: 'Download Now' });
    expect(download.getAttribute('href')).toBe('/api/orders/session/cs_test_a1/download');
    expect(download.getAttribute('href')).not.toBe(config.downloadUrl);
    expect(screen.getByRole('form', { name: 'Request a new download link' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'contact support' }).getAttribute('href')).toBe(
      `#${paths.contactUs}`,
    );
    expect(analytics).toContain('[analytics] page_view thank_you {}');
    expect(analytics.filter((line) => line === purchaseLine)).toHaveLength(1);

    // No more polling once the order is known.
    await wait(10_000);
    expect(calls).toHaveLength(3);
  });

  it('points to the email when the immediate download has closed', async () => {
    sessionAnswers({ status: 'paid', maskedEmail: 'b•••@example.com' });
    showThankYou('?session_id=cs_test_late');
    await screen.findByRole('heading', { level: 1, name: 'Thank You for Your Purchase!' });
    expect(screen.queryByRole('link', { name: 'Download Now' })).toBeNull();
    expect(
      screen.getByText('Please use the link in that email to download your bundle.'),
    ).toBeDefined();
  });

  it('records the purchase once per order: a reload does not record it again', async () => {
    sessionAnswers({ status: 'paid', maskedEmail: 'b•••@example.com' });
    const first = showThankYou('?session_id=cs_test_once');
    await screen.findByRole('heading', { level: 1, name: 'Thank You for Your Purchase!' });
    first.unmount();
    showThankYou('?session_id=cs_test_once');
    await screen.findByRole('heading', { level: 1, name: 'Thank You for Your Purchase!' });
    expect(analytics.filter((line) => line === purchaseLine)).toHaveLength(1);
    expect(JSON.parse(localStorage.getItem(RECORDED_PURCHASES_KEY)!)).toEqual(['cs_test_once']);
  });

  it('says it could not confirm a payment still pending after a minute, and checks again', async () => {
    const calls = sessionAnswers({ status: 'pending' }, 'network-error', { status: 'pending' });
    showThankYou('?session_id=cs_test_slow');

    await wait(55_000);
    expect(heading()).toBe('Confirming your payment…');
    await wait(10_000);
    expect(heading()).toBe('We could not confirm your payment yet');
    const polls = calls.length;
    expect(polls).toBeGreaterThan(10);
    expect(polls).toBeLessThan(30);
    expect(screen.getByRole('form', { name: 'Request a new download link' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'contact support' })).toBeDefined();
    expect(screen.queryByRole('link', { name: 'Download Now' })).toBeNull();
    await wait(30_000);
    expect(calls).toHaveLength(polls);

    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));
    expect(heading()).toBe('Confirming your payment…');
    await wait(100);
    expect(calls.length).toBe(polls + 1);
    expect(analytics).not.toContain(purchaseLine);
  });

  it.each<[SessionStatus['status'], string, RegExp]>([
    ['failed', 'Your payment did not go through', /try the checkout again/],
    ['review', 'We are checking your payment', /We will email you as soon as it is done/],
    ['refunded', 'This order was refunded', /its download is closed/],
    ['disputed', 'This payment is disputed', /its download is closed/],
  ])('shows a %s order without thanks, download or purchase', async (status, title, text) => {
    sessionAnswers({ status } as SessionStatus);
    showThankYou('?session_id=cs_test_state');
    await screen.findByRole('heading', { level: 1, name: title });
    expect(screen.getByText(text)).toBeDefined();
    expect(screen.getByRole('link', { name: 'contact support' })).toBeDefined();
    expect(screen.queryByRole('link', { name: 'Download Now' })).toBeNull();
    expect(analytics).not.toContain(purchaseLine);
    if (status === 'failed') {
      const retry = screen.getByRole('link', { name: 'Try the checkout again' });
      expect(retry.getAttribute('href')).toBe(config.store.product.checkoutUrl);
    }
  });

  it('tells a plain visit where the download is and never offers it', async () => {
    const calls = sessionAnswers({ status: 'paid', maskedEmail: 'x' });
    showThankYou();
    expect(heading()).toBe('Looking for your download?');
    expect(screen.getByText(/look in your inbox \(and spam folder\)/)).toBeDefined();
    expect(screen.queryByRole('link', { name: 'Download Now' })).toBeNull();
    expect(screen.queryByText(config.downloadUrl)).toBeNull();
    expect(document.body.innerHTML).not.toContain(config.downloadUrl);

    fireEvent.change(screen.getByLabelText('Email used at checkout'), {
      target: { value: 'someone@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send new link' }));
    expect((await screen.findByText(resendLinkSent('Soul Reset Bundle'))).textContent).toBe(
      resendLinkSent('Soul Reset Bundle'),
    );
    await wait(5000);
    expect(calls).toEqual(['POST /api/orders/resend-link']);
    expect(analytics).not.toContain(purchaseLine);
  });

  it('never looks up a malformed session id', async () => {
    const calls = sessionAnswers({ status: 'paid', maskedEmail: 'x' });
    showThankYou('?session_id=../admin');
    expect(heading()).toBe('We could not confirm your payment yet');
    await wait(5000);
    expect(calls).toEqual([]);
    expect(analytics).not.toContain(purchaseLine);
  });
});

describe('thank-you page without verified purchases', () => {
  it('thanks on arrival with the configured download, as before', () => {
    const calls = sessionAnswers({ status: 'failed' });
    renderAtPath(
      `${paths.thankYou}?session_id=cs_test_x`,
      <PublicConfigProvider value={{ ...config, verifiedPurchases: false }}>
        <ThankYouPage />
      </PublicConfigProvider>,
    );
    expect(heading()).toBe('Thank You for Your Purchase!');
    const download = screen.getByRole('link', { name: 'Download Now' });
    expect(download.getAttribute('href')).toBe(config.downloadUrl);
    expect(download.getAttribute('target')).toBe('_blank');
    // The page view first, then the conversion, as SPEC.md §7 lists them.
    expect(analytics).toEqual(['[analytics] page_view thank_you {}', purchaseLine]);
    expect(calls).toEqual([]);
  });

  it('says what the published content says, and counts the published price', () => {
    sessionAnswers({ status: 'failed' });
    const store = {
      ...config.store,
      product: { ...config.store.product, priceCents: 3550, currency: 'eur' },
      thankYou: { title: 'Welcome to your reset', text: 'Start with day one tonight.' },
    };
    renderAtPath(
      paths.thankYou,
      <PublicConfigProvider value={publicConfigOf({ ...config, verifiedPurchases: false }, store)}>
        <ThankYouPage />
      </PublicConfigProvider>,
    );
    expect(heading()).toBe('Welcome to your reset');
    expect(screen.getByText(/is ready\./).textContent).toBe(
      'Your Soul Reset Bundle is ready. Start with day one tonight.',
    );
    expect(analytics).toContain('[analytics] conversion purchase {"value":35.5,"currency":"EUR"}');
  });
});
