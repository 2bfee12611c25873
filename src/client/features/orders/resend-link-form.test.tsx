import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RESEND_LINK_PATH } from '../../../shared/orders/order-api';
import { fakeApi, type FakeReply, type FakeRoute } from '../../../../tests/support/client/fake-api';
import { publicConfigOf } from '../../../shared/public-config';
import { publicConfigDefaults } from '../../../shared/public-config-defaults';
import { PublicConfigProvider } from '../../routing/public-config';
import { ResendLinkForm, resendLinkSent } from './resend-link-form';

afterEach(() => vi.unstubAllGlobals());

function send(email: string) {
  fireEvent.change(screen.getByLabelText('Email used at checkout'), { target: { value: email } });
  fireEvent.click(screen.getByRole('button', { name: 'Send new link' }));
}

/** The resend-link route answered by `answer`; returns the requests as `METHOD url`. */
const resendLink = (answer: FakeRoute) => fakeApi({ [RESEND_LINK_PATH]: answer }).calls;

describe('resend link form', () => {
  it('sends the address and answers with the same words for every address', async () => {
    const bodies: unknown[] = [];
    const calls = resendLink(({ body }) => {
      bodies.push(body);
      return { status: 202, body: { status: 'accepted' } };
    });
    render(<ResendLinkForm />);

    send('  buyer@example.com ');
    expect(screen.getByRole('button', { name: 'Sending...' }).hasAttribute('disabled')).toBe(true);
    expect((await screen.findByRole('status')).textContent).toContain(
      resendLinkSent('Soul Reset Bundle'),
    );
    expect(resendLinkSent('Soul Reset Bundle')).toBe(
      'If that address bought the Soul Reset Bundle, a new download link is on its way. Please check your inbox (and spam folder).',
    );

    send('stranger@example.com');
    expect((await screen.findByRole('status')).textContent).toContain(
      resendLinkSent('Soul Reset Bundle'),
    );
    expect(calls).toEqual([`POST ${RESEND_LINK_PATH}`, `POST ${RESEND_LINK_PATH}`]);
    expect(bodies).toEqual([{ email: 'buyer@example.com' }, { email: 'stranger@example.com' }]);
  });

  it('names the product as the published content does', async () => {
    resendLink(() => ({ status: 202, body: { status: 'accepted' } }));
    const store = publicConfigDefaults.store;
    render(
      <PublicConfigProvider
        value={publicConfigOf(publicConfigDefaults, {
          ...store,
          product: { ...store.product, name: 'Calm Month Kit' },
        })}
      >
        <ResendLinkForm />
      </PublicConfigProvider>,
    );
    send('buyer@example.com');
    expect((await screen.findByRole('status')).textContent).toContain(
      'If that address bought the Calm Month Kit, a new download link is on its way.',
    );
  });

  it('checks the address before sending it', async () => {
    const calls = resendLink(() => ({ status: 202, body: { status: 'accepted' } }));
    render(<ResendLinkForm />);

    send('not-an-address');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Please enter a valid email address',
    );
    send('');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Please enter your email address.',
    );
    expect(calls).toEqual([]);
  });

  it.each<[string, FakeReply, string]>([
    [
      'a refused address',
      { status: 400, body: { message: 'That address looks wrong.' } },
      'That address looks wrong.',
    ],
    [
      'too many requests',
      { status: 429, body: { message: 'Too many requests. Try again in a minute.' } },
      'Too many requests. Try again in a minute.',
    ],
    [
      'a server fault',
      { status: 500, body: { message: 'Internal Server Error' } },
      'We could not send a new link just now.',
    ],
    ['no connection', 'network-error', 'We could not send a new link just now.'],
  ])('shows why for %s', async (_case, reply, text) => {
    resendLink(() => reply);
    render(<ResendLinkForm />);

    send('buyer@example.com');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(text);
    expect(alert.textContent).not.toContain(resendLinkSent('Soul Reset Bundle'));
    expect(screen.getByRole('button', { name: 'Send new link' }).hasAttribute('disabled')).toBe(
      false,
    );
  });
});
