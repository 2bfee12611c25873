import { afterEach, describe, expect, it, vi } from 'vitest';
import { conversion, hasGlobalPrivacyControl, pageView, track } from './analytics';

function sendGpc(value: boolean | undefined) {
  Object.defineProperty(window.navigator, 'globalPrivacyControl', {
    configurable: true,
    get: () => value,
  });
}

describe('analytics', () => {
  afterEach(() => {
    sendGpc(undefined);
    vi.restoreAllMocks();
  });

  it('logs each call as one console line: kind, name, JSON parameters', () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    pageView('home');
    track('cta_click', { source: 'hero', action: 'download_now' });
    conversion('purchase', { value: 27, currency: 'USD' });
    expect(info.mock.calls).toEqual([
      ['[analytics] page_view home {}'],
      ['[analytics] event cta_click {"source":"hero","action":"download_now"}'],
      ['[analytics] conversion purchase {"value":27,"currency":"USD"}'],
    ]);
  });

  it('under Global Privacy Control logs only that the call was suppressed', () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    sendGpc(true);
    expect(hasGlobalPrivacyControl()).toBe(true);
    track('form_submission_attempt', { form_type: 'order', purchase_intent: true });
    conversion('purchase_intent', { value: 27, currency: 'USD' });
    expect(info.mock.calls).toEqual([
      ['[analytics] suppressed event form_submission_attempt (Global Privacy Control)'],
      ['[analytics] suppressed conversion purchase_intent (Global Privacy Control)'],
    ]);
  });

  it('treats anything but an explicit true as no signal', () => {
    sendGpc(false);
    expect(hasGlobalPrivacyControl()).toBe(false);
    sendGpc(undefined);
    expect(hasGlobalPrivacyControl()).toBe(false);
  });
});
