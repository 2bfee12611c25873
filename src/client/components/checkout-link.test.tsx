import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { EVENTS_PATH } from '../../shared/insights/insight-events';
import { CheckoutLink } from './checkout-link';

afterEach(() => {
  Reflect.deleteProperty(window.navigator, 'sendBeacon');
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
