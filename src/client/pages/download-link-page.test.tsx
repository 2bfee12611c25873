import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '../../shared/paths';
import { RESEND_LINK_PATH } from '../../shared/orders/order-api';
import { fakeApi, watchAnalytics } from '../../../tests/support/client/fake-api';
import { renderAtPath } from '../../../tests/support/client/hash-route';
import { DownloadLinkPage } from './download-link-page';
import { resendLinkSent } from '../features/orders/resend-link-form';

let analytics: string[];
beforeEach(() => {
  analytics = watchAnalytics();
});
afterEach(() => vi.unstubAllGlobals());

const show = (search: string) =>
  renderAtPath(`${paths.downloadLink}${search}`, <DownloadLinkPage />);
const heading = () => screen.getByRole('heading', { level: 1 }).textContent;
const resendForm = () => screen.queryByRole('form', { name: 'Request a new download link' });

describe('download link page', () => {
  it.each([
    ['expired', 'This download link has expired', /works only for a limited time/],
    ['used', 'This download link has been used up', /reached its download limit/],
    ['invalid', 'This download link is not valid', /The link may be incomplete/],
    ['nonsense', 'This download link is not valid', /The link may be incomplete/],
    ['', 'This download link is not valid', /The link may be incomplete/],
  ])('explains a link that is %s and offers a new one', async (reason, title, text) => {
    const { calls } = fakeApi({
      [RESEND_LINK_PATH]: { status: 202, body: { status: 'accepted' } },
    });
    show(reason ? `?reason=${reason}` : '');
    expect(heading()).toBe(title);
    expect(screen.getByText(text)).toBeDefined();
    expect(resendForm()).not.toBeNull();
    expect(analytics).toContain('[analytics] page_view download_link {}');

    fireEvent.change(screen.getByLabelText('Email used at checkout'), {
      target: { value: 'buyer@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send new link' }));
    expect((await screen.findByRole('status')).textContent).toContain(
      resendLinkSent('Soul Reset Bundle'),
    );
    expect(calls).toEqual(['POST /api/orders/resend-link']);
  });

  it('sends the buyer of a refunded or disputed order to support, without a new link', () => {
    show('?reason=revoked');
    expect(heading()).toBe('This download is no longer available');
    expect(screen.getByText(/was refunded or disputed, so its download is closed/)).toBeDefined();
    expect(resendForm()).toBeNull();
    expect(screen.getByRole('link', { name: 'contact support' }).getAttribute('href')).toBe(
      `#${paths.contactUs}`,
    );
  });
});
