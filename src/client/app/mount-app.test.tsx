import { act, screen } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paths } from '../../shared/paths';
import { COPYRIGHT_YEAR_PLACEHOLDER } from '../../shared/copyright-year';
import { product } from '../../shared/product';
import {
  PUBLIC_CONFIG_ELEMENT_ID,
  publicConfigDefaults,
  publicConfigPlaceholders,
} from '../../shared/public-config';
import { render as prerender, renderRoute } from '../entry-prerender';
import { isHomeHash, mountApp } from './mount-app';

describe('isHomeHash', () => {
  it.each(['', '#', '#/', '#/?ref=mail', '#/#order-form'])('treats %j as home', (hash) => {
    expect(isHomeHash(hash)).toBe(true);
  });

  it.each(['#/privacy-policy', '#/admin', '#order-form', '#/login?next=1'])(
    'treats %j as another route',
    (hash) => {
      expect(isHomeHash(hash)).toBe(false);
    },
  );
});

describe('mountApp', () => {
  let root: Root | undefined;
  let container: HTMLElement;

  /** The page as the server sends it: prerendered markup with the configured checkout URL. */
  function prerenderedContainer(checkoutUrl = publicConfigDefaults.checkoutUrl): HTMLElement {
    container = document.createElement('div');
    container.innerHTML = prerender()
      .replaceAll(publicConfigPlaceholders.checkoutUrl, checkoutUrl)
      .replaceAll(publicConfigPlaceholders.downloadUrl, publicConfigDefaults.downloadUrl)
      .replaceAll(COPYRIGHT_YEAR_PLACEHOLDER, String(new Date().getFullYear()));
    document.body.append(container);
    return container;
  }

  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    container.remove();
    document.getElementById(PUBLIC_CONFIG_ELEMENT_ID)?.remove();
    window.history.replaceState(null, '', '#/');
    vi.restoreAllMocks();
  });

  it('hydrates the prerendered home page, keeping its DOM and hash links', async () => {
    const errors = vi.spyOn(console, 'error');
    const target = prerenderedContainer();
    const prerenderedHeading = target.querySelector('h1');

    await act(async () => {
      root = mountApp(target, '');
    });

    const heading = screen.getByRole('heading', { level: 1, name: new RegExp(product.name) });
    expect(heading).toBe(prerenderedHeading);
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe(
      `#${paths.privacyPolicy}`,
    );
    expect(errors).not.toHaveBeenCalled();
  });

  it('hydrates with the checkout URL the server embedded in the page', async () => {
    const errors = vi.spyOn(console, 'error');
    const checkoutUrl = 'https://pay.example.com/b/live-42';
    const settings = document.createElement('script');
    settings.type = 'application/json';
    settings.id = PUBLIC_CONFIG_ELEMENT_ID;
    settings.textContent = JSON.stringify({ ...publicConfigDefaults, checkoutUrl });
    document.head.append(settings);
    const target = prerenderedContainer(checkoutUrl);

    await act(async () => {
      root = mountApp(target, '');
    });

    const buy = screen.getByRole('link', { name: /Download Now – Just \$27/ });
    expect(buy.getAttribute('href')).toBe(checkoutUrl);
    expect(errors).not.toHaveBeenCalled();
  });

  it('hydrates a prerendered route the boot script moved into the container', async () => {
    const errors = vi.spyOn(console, 'error');
    window.location.hash = `#${paths.privacyPolicy}`;
    container = document.createElement('div');
    container.innerHTML = (await renderRoute(paths.privacyPolicy)).replaceAll(
      COPYRIGHT_YEAR_PLACEHOLDER,
      String(new Date().getFullYear()),
    );
    container.dataset.route = paths.privacyPolicy;
    document.body.append(container);
    const prerenderedHeading = container.querySelector('h1');
    expect(prerenderedHeading?.textContent).toBe('Privacy Policy');

    await act(async () => {
      root = mountApp(container);
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));

    expect(screen.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBe(
      prerenderedHeading,
    );
    expect(errors).not.toHaveBeenCalled();
  });

  it('replaces the prerendered markup when the hash asks for another route', async () => {
    window.location.hash = `#${paths.privacyPolicy}`;
    const target = prerenderedContainer();

    await act(async () => {
      root = mountApp(target);
    });

    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeDefined();
    expect(screen.queryByRole('heading', { name: new RegExp(product.name) })).toBeNull();
    expect(target.querySelectorAll('main')).toHaveLength(1);
  });

  it('shows the container the boot script hid while another route loaded', async () => {
    window.location.hash = `#${paths.privacyPolicy}`;
    const target = prerenderedContainer();
    target.hidden = true;

    await act(async () => {
      root = mountApp(target);
    });

    expect(target.hidden).toBe(false);
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeDefined();
  });

  it('renders from scratch when the page holds only the placeholder', async () => {
    container = document.createElement('div');
    container.innerHTML = '<!--app-html-->';
    document.body.append(container);

    await act(async () => {
      root = mountApp(container, '#/');
    });

    expect(screen.getByRole('heading', { level: 1, name: new RegExp(product.name) })).toBeDefined();
    expect(container.innerHTML).not.toContain('app-html');
  });
});
