import { PublicConfigProvider } from '../../routing/public-config';
import { publicConfigDefaults } from '../../../shared/public-config-defaults';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { fakeApi, type FakeApi, type FakeReply } from '../../../../tests/support/client/fake-api';
import { ContactForm } from './contact-form';
import { OrderForm } from './order-form';
import { RefundForm } from './refund-form';
import { TermsFeedbackForm } from './terms-feedback-form';

type Reply = { status: number; body: unknown } | 'network-error';
let api: FakeApi;
let fetchMock: Mock;
let analytics: string[];

function reply(next: Reply) {
  api.replyNext(next);
}

beforeEach(() => {
  api = fakeApi();
  fetchMock = api.fetch;
  analytics = [];
  vi.spyOn(console, 'info').mockImplementation((line: string) => void analytics.push(line));
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function fill(fields: Record<string, string>) {
  for (const [label, value] of Object.entries(fields)) {
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  }
}

describe('order form', () => {
  it('shows its title, fields, Buy Now link and notes', () => {
    render(
      <PublicConfigProvider
        value={{
          ...publicConfigDefaults,
          store: {
            ...publicConfigDefaults.store,
            product: {
              ...publicConfigDefaults.store.product,
              checkoutUrl: 'https://pay.example.com/x',
            },
          },
        }}
      >
        <OrderForm />
      </PublicConfigProvider>,
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Complete Your Order' })).toBeDefined();
    expect(screen.getByText('Fill out the form to receive your Soul Reset Bundle.')).toBeDefined();
    expect(screen.getByLabelText('Full Name *').getAttribute('type')).toBe('text');
    expect(screen.getByLabelText('Email *').getAttribute('type')).toBe('email');
    expect(screen.getByLabelText('Message (Optional)').getAttribute('rows')).toBe('4');
    const buy = screen.getByRole('link', { name: 'Buy Now - $27' });
    expect(buy.getAttribute('href')).toBe('https://pay.example.com/x');
    expect(buy.getAttribute('target')).toBe('_blank');
    expect(buy.getAttribute('rel')).toBe('noopener noreferrer');
    fireEvent.click(buy);
    expect(analytics).toContain(
      '[analytics] event stripe_payment_click {"source":"order_form","value":27,"currency":"USD"}',
    );
    expect(screen.queryByRole('button', { name: 'Reset' })).toBeNull();
  });

  it('keeps submit disabled until name and email are filled, and blank input is a no-op', () => {
    render(<OrderForm />);
    const submit = screen.getByRole('button', { name: 'Ask Questions First' });
    expect(submit).toHaveProperty('disabled', true);
    fill({ 'Full Name *': '   ', 'Email *': 'ada@example.com' });
    expect(submit).toHaveProperty('disabled', true);
    fireEvent.submit(submit.closest('form')!);
    expect(fetchMock).not.toHaveBeenCalled();
    fill({ 'Full Name *': 'Ada' });
    expect(submit).toHaveProperty('disabled', false);
  });

  it('sends, shows Sending... with inputs disabled, then success with cleared fields and Reset', async () => {
    let answer!: (value: FakeReply) => void;
    api.replyNext(new Promise((resolve) => (answer = resolve)));
    render(<OrderForm />);
    fill({ 'Full Name *': 'Ada', 'Email *': 'ada@example.com' });
    fireEvent.click(screen.getByRole('button', { name: 'Ask Questions First' }));

    expect(screen.getByRole('button', { name: 'Sending...' })).toHaveProperty('disabled', true);
    expect(screen.getByLabelText('Full Name *')).toHaveProperty('disabled', true);
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/forms/order',
      expect.objectContaining({ method: 'POST' }),
    );
    expect(JSON.parse(fetchMock.mock.calls[0]![1].body as string)).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
    });
    answer({ status: 200, body: { status: 'success', emailSent: true } });

    const banner = await screen.findByRole('status');
    expect(banner.textContent).toBe(
      'Order sent successfully!We will contact you soon to complete your purchase.',
    );
    expect(screen.getByLabelText('Full Name *')).toHaveProperty('value', '');
    expect(analytics).toEqual([
      '[analytics] event form_submission_attempt {"form_type":"order","purchase_intent":true}',
      '[analytics] conversion purchase_intent {"value":27}',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reset' })).toBeNull();
  });

  it('shows the duplicate banner and keeps the fields', async () => {
    reply({ status: 200, body: { status: 'duplicate' } });
    render(<OrderForm />);
    fill({ 'Full Name *': 'Ada', 'Email *': 'ada@example.com' });
    fireEvent.click(screen.getByRole('button', { name: 'Ask Questions First' }));
    const banner = await screen.findByRole('status');
    expect(banner.textContent).toBe(
      'Email already registered!You have already sent a request with this email.',
    );
    expect(screen.getByLabelText('Full Name *')).toHaveProperty('value', 'Ada');
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByLabelText('Full Name *')).toHaveProperty('value', '');
  });

  it.each([
    ['a server fault', { status: 503, body: { status: 'error', message: 'Unavailable' } }],
    ['a network failure', 'network-error' as const],
  ])('shows the SPEC error text on %s', async (_case, next) => {
    reply(next);
    render(<OrderForm />);
    fill({ 'Full Name *': 'Ada', 'Email *': 'ada@example.com' });
    fireEvent.click(screen.getByRole('button', { name: 'Ask Questions First' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'Submission ErrorAn error occurred while submitting the form. Please try again later.',
    );
  });

  it("shows the server's message for a refusal (4xx)", async () => {
    reply({ status: 429, body: { status: 'error', message: 'Too many submissions.' } });
    render(<OrderForm />);
    fill({ 'Full Name *': 'Ada', 'Email *': 'ada@example.com' });
    fireEvent.click(screen.getByRole('button', { name: 'Ask Questions First' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Submission ErrorToo many submissions.',
    );
  });
});

describe('contact form', () => {
  it('requires all three fields and reports its own texts and events', async () => {
    reply({ status: 200, body: { status: 'success', emailSent: false } });
    render(<ContactForm className="card" />);
    expect(screen.getByRole('heading', { level: 2, name: 'Contact Us' })).toBeDefined();
    expect(
      screen.getByText("Have questions? Fill out the form and we'll get back to you."),
    ).toBeDefined();
    expect(
      screen.getByText('Your data is protected and will not be shared with third parties.'),
    ).toBeDefined();
    expect(screen.getByRole('form', { name: 'Contact form' }).parentElement?.className).toBe(
      'card',
    );
    const submit = screen.getByRole('button', { name: 'Send Message' });
    fill({ 'Full Name': 'Ada', Email: 'ada@example.com' });
    expect(submit).toHaveProperty('disabled', true);
    fill({ Message: 'Hello' });
    fireEvent.click(submit);
    expect((await screen.findByRole('status')).textContent).toBe(
      'Message sent successfully! We will get back to you as soon as possible.',
    );
    expect(analytics).toEqual([
      '[analytics] event form_submission_attempt {"form_type":"contact","purchase_intent":false}',
      '[analytics] conversion support_inquiry {}',
    ]);
  });
});

describe('refund form', () => {
  it('shows its placeholders and the Italian error text', async () => {
    reply({ status: 500, body: { status: 'error', message: 'x' } });
    render(<RefundForm />);
    expect(screen.getByPlaceholderText('Your full name')).toBeDefined();
    expect(screen.getByPlaceholderText('you@example.com')).toBeDefined();
    expect(
      screen.getByPlaceholderText('Describe your refund request or questions...'),
    ).toBeDefined();
    fill({ 'Full Name *': 'Ada', 'Email *': 'ada@example.com', 'Message *': 'Refund?' });
    fireEvent.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      "Submission ErrorSi è verificato un errore durante l'invio della richiesta. Riprova più tardi.",
    );
    expect(analytics).toEqual([
      '[analytics] event form_submission_attempt {"form_type":"refund_inquiry"}',
    ]);
  });

  it('shows the success text and records the conversion', async () => {
    reply({ status: 200, body: { status: 'success', emailSent: true } });
    render(<RefundForm />);
    fill({ 'Full Name *': 'Ada', 'Email *': 'ada@example.com', 'Message *': 'Refund?' });
    fireEvent.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Request submitted successfully!We will contact you as soon as possible.',
    );
    expect(analytics).toContain('[analytics] conversion refund_inquiry {}');
  });
});

describe('terms feedback form', () => {
  it.each([
    [
      { status: 200, body: { status: 'success', emailSent: true } },
      'status',
      'Question submitted successfully! We will get back to you as soon as possible.',
    ],
    [
      { status: 200, body: { status: 'duplicate' } },
      'status',
      'Email already registered!You have already sent a question with this email.',
    ],
    [
      { status: 500, body: {} },
      'alert',
      'Submission ErrorAn error occurred while submitting your feedback. Please try again later.',
    ],
  ] as const)('answers %j with its own text', async (next, role, text) => {
    reply(next);
    render(<TermsFeedbackForm />);
    expect(screen.getByLabelText('Your Question *').getAttribute('rows')).toBe('4');
    fill({ 'Full Name *': 'Ada', 'Email *': 'ada@example.com', 'Your Question *': 'May I?' });
    fireEvent.click(screen.getByRole('button', { name: 'Submit Question' }));
    expect((await screen.findByRole(role)).textContent).toBe(text);
    expect(screen.getByRole('button', { name: 'Reset' })).toBeDefined();
    await waitFor(() =>
      expect(analytics[0]).toBe(
        '[analytics] event form_submission_attempt {"form_type":"terms_of_service_feedback"}',
      ),
    );
  });
});
