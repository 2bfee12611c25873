import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { FreeGuidePopup, POPUP_SESSION_FLAG } from './free-guide-popup';
import { fakeApi, type FakeApi } from '../../../../tests/support/client/fake-api';

let api: FakeApi;
let fetchMock: Mock;
let analytics: string[];

function scrollTo(fraction: number) {
  const scrollable = 3000 - window.innerHeight;
  Object.defineProperty(window, 'scrollY', { configurable: true, value: scrollable * fraction });
  act(() => {
    window.dispatchEvent(new Event('scroll'));
  });
}

function reply(body: unknown, status = 200) {
  api.replyNext({ status, body });
}

// The popup fetches its dialog's chunk when it first opens; loading that module once here keeps
// a busy machine's first transform out of the scroll and focus timings measured below.
beforeAll(() => import('./free-guide-dialog'), 30_000);

beforeEach(() => {
  sessionStorage.clear();
  Object.defineProperty(document.documentElement, 'scrollHeight', {
    configurable: true,
    value: 3000,
  });
  api = fakeApi();
  fetchMock = api.fetch;
  analytics = [];
  vi.spyOn(console, 'info').mockImplementation((line: string) => void analytics.push(line));
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function openPopup() {
  render(
    <>
      <button type="button">Before</button>
      <FreeGuidePopup />
    </>,
  );
  screen.getByRole('button', { name: 'Before' }).focus();
  scrollTo(0.4);
  const dialog = await screen.findByRole('dialog', { name: 'Free Mindfulness Guide' });
  // The dialog takes focus in an effect, which a busy machine may run after it appears.
  await waitFor(() => expect(document.activeElement).toBe(dialog));
  return dialog;
}

/** The store's consent wording, with the product's name in it. */
const consentLabel = /^Also send me occasional emails from \S/;

function fill(name: string, email: string) {
  fireEvent.change(screen.getByLabelText('Your Name *'), { target: { value: name } });
  fireEvent.change(screen.getByLabelText('Your Email *'), { target: { value: email } });
}

describe('free-guide popup (SPEC.md §4)', () => {
  it('stays hidden below 40% of the scrollable height and shows once past it', async () => {
    render(<FreeGuidePopup />);
    scrollTo(0.39);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('dialog')).toBeNull();
    scrollTo(0.4);
    const dialog = await screen.findByRole('dialog', { name: 'Free Mindfulness Guide' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(sessionStorage.getItem(POPUP_SESSION_FLAG)).toBe('true');
    expect(analytics).toEqual(['[analytics] event popup_shown {"type":"free_product_gift"}']);
  });

  it('does not show when the session flag is already set', async () => {
    sessionStorage.setItem(POPUP_SESSION_FLAG, 'true');
    render(<FreeGuidePopup />);
    scrollTo(0.9);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('takes focus, closes on Escape for the rest of the page life, and gives focus back', async () => {
    const dialog = await openPopup();
    expect(document.activeElement).toBe(dialog);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Before' }));
    expect(analytics.at(-1)).toBe('[analytics] event popup_closed {"type":"free_product_gift"}');
    sessionStorage.clear();
    scrollTo(0.1);
    scrollTo(0.8);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes with its close button and keeps Tab inside', async () => {
    const dialog = await openPopup();
    const close = screen.getByRole('button', { name: 'Close' });
    // From the panel, Shift+Tab wraps to the last control (the submit is disabled while blank).
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(screen.getByLabelText(consentLabel));
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.click(close);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('disables submit while a field is blank, and explains a bad email', async () => {
    await openPopup();
    const submit = screen.getByRole('button', { name: 'Get Your Free Guide' });
    expect(submit).toHaveProperty('disabled', true);
    fill('Ada', '   ');
    expect(submit).toHaveProperty('disabled', true);
    fireEvent.submit(submit.closest('form')!);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Please fill in all required fields',
    );
    fill('Ada', 'ada@nowhere');
    fireEvent.click(submit);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Please enter a valid email address',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('offers the list in an unticked box, sent only when ticked; the guide comes either way', async () => {
    reply({ status: 'success', emailSent: true, guideUrl: '/guide.pdf' });
    await openPopup();
    const box = screen.getByLabelText(consentLabel);
    expect(box).toHaveProperty('checked', false);
    expect(box.getAttribute('type')).toBe('checkbox');
    fill('Ada', 'ada@example.com');
    fireEvent.click(box);
    fireEvent.click(screen.getByRole('button', { name: 'Get Your Free Guide' }));
    expect(await screen.findByText('Your guide is ready!')).toBeDefined();
    expect(JSON.parse(fetchMock.mock.calls[0]![1].body as string)).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      listConsent: true,
    });
    // Starting over unticks it.
    fireEvent.click(screen.getByRole('button', { name: 'Request with different email' }));
    expect(screen.getByLabelText(consentLabel)).toHaveProperty('checked', false);
  });

  it('shows the guide link on success, and Request with different email starts over', async () => {
    reply({ status: 'success', emailSent: true, guideUrl: '/guide.pdf' });
    await openPopup();
    fill('Ada', ' ada@example.com ');
    fireEvent.click(screen.getByRole('button', { name: 'Get Your Free Guide' }));
    expect(screen.getByRole('button', { name: 'Processing...' })).toHaveProperty('disabled', true);
    expect(await screen.findByText('Your guide is ready!')).toBeDefined();
    expect(JSON.parse(fetchMock.mock.calls[0]![1].body as string)).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
    });
    const link = screen.getByRole('link', { name: 'Download Your Free Guide' });
    expect(link.getAttribute('href')).toBe('/guide.pdf');
    fireEvent.click(link);
    expect(analytics.slice(1)).toEqual([
      '[analytics] event free_product_form_submit_attempt {}',
      '[analytics] event free_product_form_submit_success {}',
      '[analytics] event free_product_download_clicked {}',
    ]);
    expect(screen.queryByText(/error sending the notification email/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Request with different email' }));
    expect(screen.getByLabelText('Your Name *')).toHaveProperty('value', '');
    expect(screen.queryByText('Your guide is ready!')).toBeNull();
  });

  it('still gives the link when the notification email failed, and says so', async () => {
    reply({ status: 'success', emailSent: false, guideUrl: '/guide.pdf' });
    await openPopup();
    fill('Ada', 'ada@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Get Your Free Guide' }));
    expect(await screen.findByText('Your guide is ready!')).toBeDefined();
    expect(
      screen.getByText(
        'Your request was received, but there was an error sending the notification email',
      ),
    ).toBeDefined();
    expect(screen.getByRole('link', { name: 'Download Your Free Guide' })).toBeDefined();
  });

  it('shows the duplicate panel with the link', async () => {
    reply({ status: 'duplicate', guideUrl: '/guide.pdf' });
    await openPopup();
    fill('Ada', 'ada@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Get Your Free Guide' }));
    expect(await screen.findByText("You've already requested this guide!")).toBeDefined();
    expect(screen.getByRole('link', { name: 'Download Your Free Guide' })).toBeDefined();
    expect(analytics).not.toContain('[analytics] event free_product_form_submit_success {}');
  });

  it('shows the error banner when the request fails', async () => {
    reply({ status: 'error', message: 'down' }, 503);
    await openPopup();
    fill('Ada', 'ada@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Get Your Free Guide' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'There was an error processing your request. Please try again later.',
      ),
    );
    expect(screen.getByLabelText('Your Name *')).toHaveProperty('value', 'Ada');
  });
});
