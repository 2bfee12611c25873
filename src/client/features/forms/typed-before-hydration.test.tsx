import { act, screen } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContactForm } from './contact-form';
import { formApiPath } from '../../../shared/forms/form-api';
import { fakeApi } from '../../../../tests/support/client/fake-api';

describe('a prerendered form hydrated after the visitor typed', () => {
  let root: Root | undefined;
  let container: HTMLElement;

  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    container.remove();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('keeps what was typed and sends it', async () => {
    const fetchMock = fakeApi({ [formApiPath('contact')]: { status: 201, body: {} } }).fetch;
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const errors = vi.spyOn(console, 'error');
    container = document.createElement('div');
    container.innerHTML = renderToString(<ContactForm />);
    document.body.append(container);
    // Typing into the server's markup, before any script: the DOM changes, React knows nothing.
    const type = (name: string, value: string) => {
      const field = container.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
      field.value = value;
    };
    type('name', 'Early Visitor');
    type('email', 'early@example.com');
    type('message', 'Typed before the scripts arrived.');

    await act(async () => {
      root = hydrateRoot(container, <ContactForm />);
    });

    expect(screen.getByLabelText('Full Name')).toHaveProperty('value', 'Early Visitor');
    const submit = screen.getByRole('button', { name: 'Send Message' });
    expect(submit).toHaveProperty('disabled', false);
    await act(async () => submit.click());
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({
      name: 'Early Visitor',
      email: 'early@example.com',
      message: 'Typed before the scripts arrived.',
    });
    expect(errors).not.toHaveBeenCalled();
  });
});
