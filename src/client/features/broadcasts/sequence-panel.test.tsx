import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_SEQUENCE_PATH,
  type AdminSequence,
  type AdminSequenceStep,
} from '../../../shared/broadcasts/broadcasts-api';
import { fakeApi } from '../../../../tests/support/client/fake-api';
import { SequencePanel } from './sequence-panel';

const step = (id: number, values: Partial<AdminSequenceStep> = {}): AdminSequenceStep => ({
  id,
  position: id,
  delayDays: 0,
  subject: `Step ${id}`,
  preheader: '',
  html: '<p>Hi</p>',
  recipients: 50,
  sent: 48,
  failed: 1,
  bounced: 1,
  remaining: 0,
  unsubscribed: 2,
  purchases: 3,
  revenue: 8100,
  ...values,
});

beforeEach(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('Sequence panel', () => {
  it('shows each step with its day and results: who got it and who bought after it', async () => {
    fakeApi({
      [ADMIN_SEQUENCE_PATH]: {
        status: 200,
        body: { active: true, steps: [step(1), step(2, { delayDays: 3 })] } as AdminSequence,
      },
    });
    render(<SequencePanel currency="usd" />);
    const steps = await screen.findAllByRole('group', { name: /^Email \d/ });
    expect(steps).toHaveLength(2);
    expect(within(steps[0]!).getByText('Right after confirming')).toBeDefined();
    expect(within(steps[1]!).getByText('3 days after confirming')).toBeDefined();
    expect(steps[0]!.textContent).toMatch(
      /Got it48Queued0Failed or bounced2Bought after it3Revenue\$81\.00Unsubscribed2/,
    );
    expect(screen.getByRole('switch', { name: 'Sequence active' })).toHaveProperty('checked', true);
    expect(screen.getByRole('button', { name: 'Save sequence' })).toHaveProperty('disabled', true);
  });

  it('adds a step, turns it on and saves the whole sequence; shows a step’s field error', async () => {
    const api = fakeApi({
      [ADMIN_SEQUENCE_PATH]: ({ method, body }) => {
        if (method === 'GET') return { status: 200, body: { active: false, steps: [] } };
        const draft = body as { steps: { subject: string }[] };
        if (draft.steps.some((one) => one.subject === '')) {
          return {
            status: 400,
            body: {
              error: 'Bad Request',
              message: 'Some fields need your attention.',
              fields: { 'steps.0.subject': 'The subject cannot be empty.' },
            },
          };
        }
        return {
          status: 200,
          body: {
            active: true,
            steps: [step(5, { subject: draft.steps[0]!.subject, sent: 0, recipients: 0 })],
          },
        };
      },
    });
    render(<SequencePanel />);
    expect(await screen.findByText(/No emails in the sequence yet/)).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Add an email' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Sequence active' }));
    expect(screen.getByText('Unsaved changes')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Save sequence' }));
    expect(await screen.findByText('The subject cannot be empty.')).toBeDefined();
    expect(screen.getByLabelText('Subject').getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(screen.getByLabelText('Subject'), { target: { value: 'Your guide again' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Email' }), {
      target: { value: '<p>Here it is</p>' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save sequence' }));
    expect(await screen.findByText(/^Sequence saved\. New subscribers/)).toBeDefined();
    expect(api.requests.filter((request) => request.method === 'PUT').at(-1)?.body).toEqual({
      active: true,
      steps: [
        { delayDays: 0, subject: 'Your guide again', preheader: '', html: '<p>Here it is</p>' },
      ],
    });
    expect(screen.queryByText('Unsaved changes')).toBeNull();
  });
});
