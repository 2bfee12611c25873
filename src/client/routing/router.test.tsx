import { act, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { HashRouter, Link, StaticRouter, navigate, parseHashLocation, useLocation } from './router';

describe('parseHashLocation', () => {
  it.each([
    ['', { pathname: '/', search: '', hash: '' }],
    ['#', { pathname: '/', search: '', hash: '' }],
    ['#/', { pathname: '/', search: '', hash: '' }],
    ['#/privacy-policy', { pathname: '/privacy-policy', search: '', hash: '' }],
    ['#/#order-form', { pathname: '/', search: '', hash: '#order-form' }],
    ['#/login?next=1#top', { pathname: '/login', search: '?next=1', hash: '#top' }],
    ['#admin', { pathname: '/admin', search: '', hash: '' }],
  ])('reads %j', (hash, location) => {
    expect(parseHashLocation(hash)).toEqual(location);
  });
});

function Where() {
  const { pathname, hash } = useLocation();
  return <output>{`${pathname}${hash}`}</output>;
}

describe('HashRouter', () => {
  afterEach(() => {
    window.history.replaceState(null, '', '#/');
  });

  it('follows the address as links, navigate() and replace change it', async () => {
    window.history.replaceState(null, '', '#/');
    render(
      <HashRouter>
        <Where />
        <Link to="/terms-of-service">Terms</Link>
      </HashRouter>,
    );
    expect(screen.getByRole('status').textContent).toBe('/');
    expect(screen.getByRole('link', { name: 'Terms' }).getAttribute('href')).toBe(
      '#/terms-of-service',
    );

    act(() => navigate('/contact-us'));
    expect(await screen.findByText('/contact-us')).toBeDefined();

    const entries = window.history.length;
    act(() => navigate('/#order-form', { replace: true }));
    expect(screen.getByRole('status').textContent).toBe('/#order-form');
    expect(window.location.hash).toBe('#/#order-form');
    expect(window.history.length).toBe(entries);
  });

  it('shows the new address as soon as navigate() returns, before the browser says hashchange', () => {
    window.history.replaceState(null, '', '#/');
    render(
      <HashRouter>
        <Where />
      </HashRouter>,
    );
    // A control whose state lives in the address (a filter checkbox) must show it at once.
    act(() => navigate('/admin?q=1'));
    expect(screen.getByRole('status').textContent).toBe('/admin');
    expect(window.location.hash).toBe('#/admin?q=1');
  });

  /** Hydrates markup prerendered for home at `hash`; returns how often the page rendered. */
  async function hydrateHomeAt(hash: string) {
    window.history.replaceState(null, '', hash === '' ? window.location.pathname : hash);
    let renders = 0;
    // Reads the location, as AppRoutes does above the whole page; counts its committed renders.
    function Counted() {
      const { pathname, hash: section } = useLocation();
      useEffect(() => {
        renders += 1;
      });
      return <output>{`${pathname}${section}`}</output>;
    }
    const counted = <Counted />;
    const container = document.createElement('div');
    container.innerHTML = renderToString(<StaticRouter location="/">{counted}</StaticRouter>);
    document.body.append(container);
    renders = 0;
    const root = await act(async () =>
      hydrateRoot(container, <HashRouter hydratedFrom="/">{counted}</HashRouter>),
    );
    const text = container.textContent;
    act(() => root.unmount());
    container.remove();
    return { renders, text };
  }

  it.each(['', '#', '#/'])('hydrates the home markup at %j in a single render', async (hash) => {
    // A second render would be the whole page again, in one task, right after hydrating.
    expect(await hydrateHomeAt(hash)).toEqual({ renders: 1, text: '/' });
  });

  it('hydrates the home markup at a section address, then follows the address', async () => {
    expect((await hydrateHomeAt('#/#order-form')).text).toBe('/#order-form');
  });
});
