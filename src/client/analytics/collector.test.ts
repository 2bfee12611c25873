import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { conversion, pageView, track } from './analytics';
import { EVENTS_PATH } from '../../shared/insights/insight-events';
import { paths } from '../../shared/paths';
import { sendInsight } from './collector';

type Beacon = (url: string, data?: BodyInit | null) => boolean;

function sendGpc(value: boolean | undefined) {
  Object.defineProperty(window.navigator, 'globalPrivacyControl', {
    configurable: true,
    get: () => value,
  });
}

/** Gives jsdom's navigator a sendBeacon (it has none) that records what it was given. */
function stubBeacon(beacon: Beacon = () => true) {
  const sendBeacon = vi.fn(beacon);
  Object.defineProperty(window.navigator, 'sendBeacon', { configurable: true, value: sendBeacon });
  return sendBeacon;
}

function removeBeacon() {
  Reflect.deleteProperty(window.navigator, 'sendBeacon');
}

function at(hash: string) {
  window.history.replaceState(null, '', hash || window.location.pathname);
}

/** The `{ name, path }` bodies sent so far, checking each went to EVENTS_PATH as a string. */
function sentEvents(sendBeacon: ReturnType<typeof stubBeacon>) {
  return sendBeacon.mock.calls.map(([url, body]) => {
    expect(url).toBe(EVENTS_PATH);
    expect(typeof body).toBe('string');
    return JSON.parse(body as string) as unknown;
  });
}

describe('insights collector', () => {
  let info: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    info = vi.spyOn(console, 'info').mockImplementation(() => {});
    at('#/');
  });

  afterEach(() => {
    sendGpc(undefined);
    removeBeacon();
    at('#/');
  });

  describe('maps the analytics calls to insight events', () => {
    it.each([
      ['every page view', () => pageView('home'), 'page_view'],
      ['the popup shown', () => track('popup_shown', { trigger: 'scroll' }), 'popup_shown'],
      ['the popup closed', () => track('popup_closed', { trigger: 'scroll' }), 'popup_closed'],
      [
        'the free guide requested',
        () => track('free_product_form_submit_success'),
        'guide_requested',
      ],
      [
        'the checkout click',
        () => track('stripe_payment_click', { source: 'hero', value: 27, currency: 'USD' }),
        'checkout_click',
      ],
      ['an order form sent', () => conversion('purchase_intent', { value: 27 }), 'form_submitted'],
      ['a refund inquiry sent', () => conversion('refund_inquiry'), 'form_submitted'],
      ['a contact form sent', () => conversion('support_inquiry'), 'form_submitted'],
      ['terms feedback sent', () => conversion('terms_feedback'), 'form_submitted'],
    ])('%s', (_label, call, name) => {
      const sendBeacon = stubBeacon();
      call();
      expect(sentEvents(sendBeacon)).toEqual([{ name, path: '/' }]);
    });

    it('sends the page view of every public screen with its path', () => {
      const sendBeacon = stubBeacon();
      const screens = [
        [paths.home, 'home'],
        [paths.thankYou, 'thank_you'],
        [paths.privacyPolicy, 'privacy_policy'],
        [paths.refundPolicy, 'refund_policy'],
        [paths.termsOfService, 'terms_of_service'],
        [paths.contactUs, 'contact_us'],
        [paths.downloadLink, 'download_link'],
      ] as const;
      for (const [path, page] of screens) {
        at(`#${path}`);
        pageView(page);
      }
      expect(sentEvents(sendBeacon)).toEqual(
        screens.map(([path]) => ({ name: 'page_view', path })),
      );
    });

    it('sends nothing for every other call, and keeps every console line', () => {
      const sendBeacon = stubBeacon();
      track('navigation_click', { source: 'footer', destination: 'privacy_policy' });
      track('cta_click', { source: 'hero', action: 'buy_now' });
      track('form_submission_attempt', { form_type: 'order', purchase_intent: true });
      track('free_product_form_submit_attempt');
      track('free_product_download_clicked');
      conversion('purchase', { value: 27, currency: 'USD' });
      // The table is per kind: an event named like a conversion (or the reverse) is not sent.
      track('purchase_intent');
      conversion('popup_shown');
      track('page_view');
      expect(sendBeacon).not.toHaveBeenCalled();
      expect(info).toHaveBeenCalledTimes(9);
    });
  });

  it('sends the path without its query or section', () => {
    const sendBeacon = stubBeacon();
    at('#/privacy-policy?x=1');
    pageView('privacy_policy');
    at('#/#order-form');
    conversion('purchase_intent', { value: 27 });
    at('');
    pageView('home');
    expect(sentEvents(sendBeacon)).toEqual([
      { name: 'page_view', path: '/privacy-policy' },
      { name: 'form_submitted', path: '/' },
      { name: 'page_view', path: '/' },
    ]);
  });

  it('sends exactly the name and the path, nothing about the call or the visitor', () => {
    const sendBeacon = stubBeacon();
    track('stripe_payment_click', { source: 'hero', value: 27, currency: 'USD' });
    expect(sendBeacon.mock.calls).toEqual([[EVENTS_PATH, '{"name":"checkout_click","path":"/"}']]);
  });

  it('never sends from the admin, the sign-in or any path outside the public screens', () => {
    const sendBeacon = stubBeacon();
    for (const hash of [
      '#/admin',
      '#/admin/login',
      '#/admin/orders',
      '#/admin/insights',
      '#/login',
      '#/login?next=/admin',
      '#/nowhere',
    ]) {
      at(hash);
      sendInsight('page_view');
      track('stripe_payment_click');
    }
    expect(sendBeacon).not.toHaveBeenCalled();
  });

  it('under Global Privacy Control sends nothing, and the console says suppressed as before', () => {
    const sendBeacon = stubBeacon();
    sendGpc(true);
    pageView('home');
    track('popup_shown');
    track('stripe_payment_click');
    conversion('support_inquiry');
    sendInsight('page_view');
    expect(sendBeacon).not.toHaveBeenCalled();
    expect(info.mock.calls).toEqual([
      ['[analytics] suppressed page_view home (Global Privacy Control)'],
      ['[analytics] suppressed event popup_shown (Global Privacy Control)'],
      ['[analytics] suppressed event stripe_payment_click (Global Privacy Control)'],
      ['[analytics] suppressed conversion support_inquiry (Global Privacy Control)'],
    ]);
  });

  it('without sendBeacon sends nothing and never throws; the console line stays', () => {
    removeBeacon();
    expect('sendBeacon' in window.navigator).toBe(false);
    expect(() => pageView('home')).not.toThrow();
    expect(() => sendInsight('checkout_click')).not.toThrow();
    expect(info.mock.calls).toEqual([['[analytics] page_view home {}']]);
  });

  it('never throws when sendBeacon throws or refuses', () => {
    stubBeacon(() => {
      throw new TypeError('Refused');
    });
    expect(() => track('popup_closed')).not.toThrow();
    const refusing = stubBeacon(() => false);
    expect(() => track('popup_closed')).not.toThrow();
    expect(refusing).toHaveBeenCalledOnce();
  });

  it('stores nothing in the browser: no cookie, no local or session storage', () => {
    stubBeacon();
    localStorage.clear();
    sessionStorage.clear();
    pageView('home');
    track('popup_shown');
    conversion('support_inquiry');
    expect(document.cookie).toBe('');
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
  });
});
