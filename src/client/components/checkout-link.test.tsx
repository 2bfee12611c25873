import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHECKOUT_PATH } from '../../shared/orders/checkout-api';
import { publicConfigDefaults } from '../../shared/public-config-defaults';
import { fakeApi } from '../../../tests/support/client/fake-api';
import { leaveSite } from '../lib/leave-site';
import { PublicConfigProvider } from '../routing/public-config';
import { EVENTS_PATH } from '../../shared/insights/insight-events';
import { CheckoutLink } from './checkout-link';

afterEach(() => {
  Reflect.deleteProperty(window.navigator, 'sendBeacon');
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

it('queues the checkout_click beacon during the click, before the browser follows the link', () => {
  vi.spyOn(console, 'info').mockImplementation(() => {});
  const sendBeacon = vi.fn(() => true);
  Object.defineProperty(window.navigator, 'sendBeacon', { configurable: true, value: sendBeacon });
  let sentBeforeLeaving: unknown[][] = [];
  // The last listener to see the click, just before the browser's default action (leaving).
  const leave = (event: MouseEvent) => {
    sentBeforeLeaving = [...sendBeacon.mock.calls];
    event.preventDefault();
  };
  window.addEventListener('click', leave);
  try {
    window.history.replaceState(null, '', '#/');
    render(<CheckoutLink source="hero">Buy</CheckoutLink>);
    fireEvent.click(screen.getByRole('link', { name: 'Buy' }));
  } finally {
    window.removeEventListener('click', leave);
  }
  expect(sentBeforeLeaving).toEqual([[EVENTS_PATH, '{"name":"checkout_click","path":"/"}']]);
  expect(sendBeacon).toHaveBeenCalledOnce();
});

describe('with Checkout Sessions', () => {
  const config = { ...publicConfigDefaults, checkoutSessions: true };
  const renderLink = () =>
    render(
      <PublicConfigProvider value={config}>
        <CheckoutLink source="hero">Buy</CheckoutLink>
      </PublicConfigProvider>,
    );

  it('asks the server for a session of the published product and goes there', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const leave = vi.spyOn(leaveSite, 'to').mockImplementation(() => {});
    const api = fakeApi({
      [CHECKOUT_PATH]: { status: 200, body: { url: 'https://checkout.stripe.com/c/pay/cs_1' } },
    });
    renderLink();
    fireEvent.click(screen.getByRole('link', { name: 'Buy' }));
    await waitFor(() =>
      expect(leave).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_1'),
    );
    expect(api.calls).toContain(`POST ${CHECKOUT_PATH}`);
  });

  it('opens the published Payment Link when the server cannot make one', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const leave = vi.spyOn(leaveSite, 'to').mockImplementation(() => {});
    fakeApi({ [CHECKOUT_PATH]: { status: 502, body: { error: 'Bad Gateway', message: 'x' } } });
    renderLink();
    fireEvent.click(screen.getByRole('link', { name: 'Buy' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith(config.store.product.checkoutUrl));
  });
});
