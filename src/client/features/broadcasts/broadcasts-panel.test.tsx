import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_BROADCAST_PREVIEW_DOCUMENT_PATH,
  ADMIN_BROADCASTS_PATH,
  SENDER_MISSING_MESSAGE,
  type AdminBroadcast,
} from '../../../shared/broadcasts/broadcasts-api';
import { fakeApi } from '../../../../tests/support/client/fake-api';
import { cancelConfirmation, PROGRESS_POLL_MS, sendNowConfirmation } from './broadcast-detail';
import { BroadcastsPanel } from './broadcasts-panel';
import { SENDER_FIELDS_LINK } from './sender-missing-notice';

const zero = {
  recipients: 0,
  sent: 0,
  failed: 0,
  bounced: 0,
  remaining: 0,
  unsubscribed: 0,
  purchases: 0,
  revenue: 0,
};

const broadcast = (id: number, values: Partial<AdminBroadcast> = {}): AdminBroadcast => ({
  ...zero,
  id,
  slug: `letter-${id}`,
  subject: `Letter ${id}`,
  preheader: '',
  html: '<p>Hello</p>',
  excludeBuyers: false,
  status: 'draft',
  scheduledAt: null,
  startedAt: null,
  finishedAt: null,
  createdAt: '2026-11-20T09:00:00.000Z',
  ratePerSecond: null,
  estimatedEnd: null,
  ...values,
});

const sending = (sent: number) =>
  broadcast(7, {
    status: 'sending',
    startedAt: '2026-11-27T09:00:00.000Z',
    recipients: 1000,
    sent,
    failed: 2,
    bounced: 1,
    remaining: 1000 - sent - 3,
    ratePerSecond: 12.5,
    estimatedEnd: '2026-11-27T09:10:00.000Z',
  });

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
const type = (name: string, value: string) => fireEvent.change(field(name), { target: { value } });
const click = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

beforeEach(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('Broadcasts panel', () => {
  it('says there are none yet, and fetches again after a failure', async () => {
    const api = fakeApi();
    api.replyNext({ status: 500, body: { error: 'Internal', message: 'The database is away.' } });
    api.route({ [ADMIN_BROADCASTS_PATH]: { status: 200, body: { rows: [] } } });
    render(<BroadcastsPanel />);
    expect(screen.getByRole('status').textContent).toContain('Loading broadcasts');
    expect((await screen.findByRole('alert')).textContent).toContain('The database is away.');
    click('Try again');
    expect(await screen.findByText('No broadcasts yet')).toBeDefined();
    expect(screen.getByRole('button', { name: 'New broadcast' })).toBeDefined();
  });

  it('lists each broadcast with its status, counts and revenue in the store currency', async () => {
    fakeApi({
      [ADMIN_BROADCASTS_PATH]: {
        status: 200,
        body: {
          rows: [
            sending(400),
            broadcast(6, { status: 'scheduled', scheduledAt: '2026-12-01T08:00:00.000Z' }),
            broadcast(5, {
              status: 'sent',
              finishedAt: '2026-11-21T10:00:00.000Z',
              recipients: 300,
              sent: 298,
              purchases: 4,
              revenue: 19600,
            }),
            broadcast(4),
          ],
        },
      },
    });
    render(<BroadcastsPanel currency="usd" />);
    const items = await screen.findAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/Letter 7Sending.*400 of 1,000 sent \(40%\)/),
      expect.stringMatching(/Letter 6Scheduled.*Starts/),
      expect.stringMatching(/Letter 5Sent.*298 of 300 sent.*4 purchases · \$196\.00/),
      expect.stringMatching(/Letter 4Draft.*Created/),
    ]);
  });

  it('writes a draft, previews it, sends a test and sends it to the list', async () => {
    const api = fakeApi({
      [ADMIN_BROADCASTS_PATH]: ({ method }) =>
        method === 'POST' ? { status: 201, body: { id: 9 } } : { status: 200, body: { rows: [] } },
      [`${ADMIN_BROADCASTS_PATH}/preview`]: {
        status: 200,
        body: { subject: 'Winter notes', html: '<p>Hello Alex</p>', text: 'Hello Alex' },
      },
      [`${ADMIN_BROADCASTS_PATH}/test`]: { status: 200, body: { sentTo: 'owner@example.com' } },
      [`${ADMIN_BROADCASTS_PATH}/9`]: {
        status: 200,
        body: broadcast(9, { subject: 'Winter notes', excludeBuyers: true }),
      },
      [`${ADMIN_BROADCASTS_PATH}/9/send`]: {
        status: 200,
        body: { ...sending(0), id: 9, subject: 'Winter notes' },
      },
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    // The frames are navigated by forms posted to them (jsdom does not navigate).
    const submitted: HTMLFormElement[] = [];
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (
      this: HTMLFormElement,
    ) {
      submitted.push(this);
    });
    render(<BroadcastsPanel />);
    fireEvent.click(await screen.findByRole('button', { name: 'New broadcast' }));
    type('Subject', 'Winter notes');
    type('Preview text (optional)', 'Three quiet evenings');
    fireEvent.change(screen.getByRole('textbox', { name: 'Email' }), {
      target: { value: '<p>Hello</p>' },
    });
    fireEvent.click(screen.getByRole('checkbox', { name: /Leave out buyers/ }));

    click('Preview');
    const frames = await screen.findAllByTitle(/^Broadcast preview at/);
    expect(frames.map((frame) => frame.getAttribute('width'))).toEqual(['375', '1280']);
    expect(screen.getByText('Winter notes', { selector: 'strong' })).toBeDefined();
    // Each frame is a document of its own posted from a form: no srcdoc, which would take the
    // admin page's policy and lose the email's inline styles.
    expect(frames.map((frame) => frame.getAttribute('srcdoc'))).toEqual([null, null]);
    // Sandboxed without scripts (the document's own policy allows none either).
    expect(frames.map((frame) => frame.getAttribute('sandbox'))).toEqual([
      'allow-same-origin',
      'allow-same-origin',
    ]);
    const names = frames.map((frame) => frame.getAttribute('name'));
    expect(new Set(names).size).toBe(2);
    await waitFor(() => expect(submitted.map((form) => form.target)).toEqual(names));
    const expectedDraft = {
      subject: 'Winter notes',
      preheader: 'Three quiet evenings',
      html: '<p>Hello</p>',
      excludeBuyers: true,
    };
    for (const form of submitted) {
      expect(form.method).toBe('post');
      expect(form.getAttribute('action')).toBe(ADMIN_BROADCAST_PREVIEW_DOCUMENT_PATH);
      expect(JSON.parse(new FormData(form).get('draft') as string)).toEqual(expectedDraft);
    }
    click('Send me a test');
    expect(await screen.findByText('Test email sent to owner@example.com.')).toBeDefined();
    // Re-rendering does not post the preview again.
    expect(submitted).toHaveLength(2);

    click('Send to subscribers');
    expect(window.confirm).toHaveBeenCalledWith(sendNowConfirmation);
    expect(await screen.findByText('Sending has started.')).toBeDefined();
    const draft = {
      subject: 'Winter notes',
      preheader: 'Three quiet evenings',
      html: '<p>Hello</p>',
      excludeBuyers: true,
    };
    const posts = api.requests.filter((request) => request.method !== 'GET');
    expect(posts.map((request) => [request.method, request.path, request.body])).toEqual([
      ['POST', `${ADMIN_BROADCASTS_PATH}/preview`, draft],
      ['POST', `${ADMIN_BROADCASTS_PATH}/test`, draft],
      ['POST', ADMIN_BROADCASTS_PATH, draft],
      ['POST', `${ADMIN_BROADCASTS_PATH}/9/send`, {}],
    ]);
  });

  it('shows the refusal without a sender, with the way to the Store’s sender fields', async () => {
    fakeApi({
      [ADMIN_BROADCASTS_PATH]: { status: 200, body: { rows: [broadcast(3)] } },
      [`${ADMIN_BROADCASTS_PATH}/3`]: { status: 200, body: broadcast(3) },
      [`${ADMIN_BROADCASTS_PATH}/3/send`]: {
        status: 409,
        body: { error: 'Conflict', message: SENDER_MISSING_MESSAGE },
      },
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    render(<BroadcastsPanel />);
    fireEvent.click(await screen.findByRole('button', { name: /Letter 3/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Send to subscribers' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Nothing was sent: the sender is missing.');
    expect(alert.textContent).toContain(SENDER_MISSING_MESSAGE);
    expect(screen.getByRole('link', { name: 'Open Store → Sender' }).getAttribute('href')).toBe(
      `#${SENDER_FIELDS_LINK}`,
    );
  });

  it('schedules a draft at a chosen time, refusing a time in the past', async () => {
    const api = fakeApi({
      [ADMIN_BROADCASTS_PATH]: { status: 200, body: { rows: [broadcast(3)] } },
      [`${ADMIN_BROADCASTS_PATH}/3`]: { status: 200, body: broadcast(3) },
      [`${ADMIN_BROADCASTS_PATH}/3/send`]: ({ body }) => ({
        status: 200,
        body: broadcast(3, {
          status: 'scheduled',
          scheduledAt: (body as { at: string }).at,
        }),
      }),
    });
    render(<BroadcastsPanel />);
    fireEvent.click(await screen.findByRole('button', { name: /Letter 3/ }));
    fireEvent.click(await screen.findByRole('radio', { name: /At a time/ }));
    type('Date and time (your time zone)', '2020-01-01T09:00');
    click('Schedule');
    expect(screen.getByText('Choose a time in the future.')).toBeDefined();
    type('Date and time (your time zone)', '2099-03-04T09:30');
    click('Schedule');
    expect((await screen.findByRole('status')).textContent).toMatch(/^Scheduled for .+\.$/);
    expect(screen.getByText(/You can still change it until then/)).toBeDefined();
    const send = api.requests.find((request) => request.path.endsWith('/send'));
    expect(send?.body).toEqual({ at: new Date('2099-03-04T09:30').toISOString() });
    expect(screen.getByRole('button', { name: 'Cancel the schedule' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Schedule' })).toBeNull();
  });

  it('updates the progress while it sends, and pauses, resumes and cancels it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let current = sending(400);
    const api = fakeApi({
      [ADMIN_BROADCASTS_PATH]: { status: 200, body: { rows: [current] } },
      [`${ADMIN_BROADCASTS_PATH}/7`]: () => ({ status: 200, body: current }),
      [`${ADMIN_BROADCASTS_PATH}/7/*`]: ({ path }) => {
        const action = path.split('/').at(-1);
        current = {
          ...current,
          status: action === 'pause' ? 'paused' : action === 'resume' ? 'sending' : 'cancelled',
        };
        return { status: 200, body: current };
      },
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    render(<BroadcastsPanel currency="eur" />);
    fireEvent.click(await screen.findByRole('button', { name: /Letter 7/ }));
    const bar = await screen.findByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByText('12.5/s')).toBeDefined();
    expect(screen.getByText('Remaining').nextSibling?.textContent).toBe('597');

    current = sending(900);
    await act(async () => {
      vi.advanceTimersByTime(PROGRESS_POLL_MS);
    });
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('90'));
    expect(screen.getByText('Remaining').nextSibling?.textContent).toBe('97');

    click('Pause');
    await screen.findByRole('button', { name: 'Resume' });
    expect(screen.getByText('Rate').nextSibling?.textContent).toBe('—');
    // Paused: no more polling.
    const gets = api.calls.length;
    await act(async () => {
      vi.advanceTimersByTime(PROGRESS_POLL_MS * 3);
    });
    expect(api.calls.length).toBe(gets);

    click('Resume');
    await screen.findByRole('button', { name: 'Pause' });
    click('Cancel sending');
    expect(window.confirm).toHaveBeenCalledWith(cancelConfirmation);
    await screen.findByText('Cancelled');
    expect(screen.queryByRole('button', { name: /Pause|Resume|Cancel/ })).toBeNull();
    expect(api.calls).toEqual(
      expect.arrayContaining([
        `POST ${ADMIN_BROADCASTS_PATH}/7/pause`,
        `POST ${ADMIN_BROADCASTS_PATH}/7/resume`,
        `POST ${ADMIN_BROADCASTS_PATH}/7/cancel`,
      ]),
    );
  });

  it('shows a sent broadcast’s results: purchases and revenue, not opens', async () => {
    const sent = broadcast(5, {
      status: 'sent',
      startedAt: '2026-11-21T09:00:00.000Z',
      finishedAt: '2026-11-21T10:00:00.000Z',
      recipients: 300,
      sent: 296,
      failed: 1,
      bounced: 3,
      unsubscribed: 2,
      purchases: 4,
      revenue: 19600,
    });
    fakeApi({
      [ADMIN_BROADCASTS_PATH]: { status: 200, body: { rows: [sent] } },
      [`${ADMIN_BROADCASTS_PATH}/5`]: { status: 200, body: sent },
    });
    render(<BroadcastsPanel currency="usd" />);
    fireEvent.click(await screen.findByRole('button', { name: /Letter 5/ }));
    const results = await screen.findByRole('region', { name: 'Results' });
    expect(results.textContent).toMatch(/Purchases4Revenue\$196\.00Unsubscribed2/);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    // Sent: nothing to edit or control any more.
    expect(screen.queryByLabelText('Subject')).toBeNull();
    expect(screen.queryByRole('button', { name: /Pause|Resume|Cancel|Send to/ })).toBeNull();
    click('All broadcasts');
    expect(await screen.findByRole('button', { name: 'New broadcast' })).toBeDefined();
  });
});
