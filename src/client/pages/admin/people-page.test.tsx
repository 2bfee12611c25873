import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { peopleErasePath, peoplePath } from '../../../shared/admin/people-api';
import { fakeApi, type FakeReply } from '../../../../tests/support/client/fake-api';
import { PeoplePage, personFileName } from './people-page';

function json(status: number, body: unknown): FakeReply {
  return { status, body };
}

/** The people routes: the lookup (its path without the address) and the erase. */
const lookupPath = new URL(peoplePath(''), 'http://localhost').pathname;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const found = {
  email: 'ann@example.com',
  tables: [
    {
      table: 'form_submissions',
      label: 'form submissions',
      rows: [{ id: 1, email: 'ann@example.com' }],
    },
    {
      table: 'auth_user',
      label: 'sign-in account',
      rows: [{ id: 'u1', email: 'ann@example.com' }],
    },
  ],
};

describe('People page', () => {
  it('finds every record of an address, downloads them as JSON, and erases after typing it', async () => {
    let erased = false;
    const { fetch } = fakeApi({
      [peopleErasePath()]: () => {
        erased = true;
        return json(200, { erased: [{ table: 'form_submissions', deleted: 1, scrubbed: 0 }] });
      },
      [lookupPath]: () => json(200, erased ? { email: 'ann@example.com', tables: [] } : found),
    });
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.download);
    });
    render(<PeoplePage />);
    fireEvent.change(screen.getByLabelText('Email address'), {
      target: { value: ' ann@example.com ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Find records' }));
    expect(await screen.findByText(/2 records of/)).toBeDefined();
    expect(fetch).toHaveBeenCalledWith(
      '/api/admin/people?email=ann%40example.com',
      expect.anything(),
    );
    expect(screen.getByRole('heading', { name: /form_submissions/ })).toBeDefined();

    fireEvent.click(screen.getByRole('button', { name: 'Download JSON' }));
    expect(clicked).toEqual(['person-ann@example.com.json']);

    const erase = screen.getByRole('button', { name: 'Erase everywhere' });
    expect(erase).toHaveProperty('disabled', true);
    fireEvent.change(screen.getByLabelText('Type ann@example.com to confirm'), {
      target: { value: 'ann@example.co' },
    });
    expect(erase).toHaveProperty('disabled', true);
    fireEvent.change(screen.getByLabelText('Type ann@example.com to confirm'), {
      target: { value: 'ANN@example.com' },
    });
    expect(erase).toHaveProperty('disabled', false);
    fireEvent.click(erase);
    expect((await screen.findByText(/^Erased ann@example.com:/)).textContent).toBe(
      'Erased ann@example.com: form_submissions (1 deleted, 0 scrubbed)',
    );
    await waitFor(() => expect(screen.getByText('No records of ann@example.com.')).toBeDefined());
    expect(fetch).toHaveBeenCalledWith(
      '/api/admin/people/erase',
      expect.objectContaining({ method: 'POST', body: '{"email":"ann@example.com"}' }),
    );
  });

  it('shows the server’s message for an address it refuses', async () => {
    fakeApi({
      [lookupPath]: json(400, {
        error: 'Bad Request',
        message: 'Type one email address, like ann@example.com.',
      }),
    });
    render(<PeoplePage />);
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'a@b' } });
    fireEvent.click(screen.getByRole('button', { name: 'Find records' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Type one email address, like ann@example.com.',
    );
    expect(personFileName('a b/c@x.org')).toBe('person-a_b_c@x.org.json');
  });
});
