import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HashRouter, Link, navigate, parseHashLocation, useLocation } from './router';

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
});
