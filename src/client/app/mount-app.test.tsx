import { act, screen } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paths } from '../../shared/paths';
import { publicConfigDefaults } from '../../shared/public-config-defaults';
import { readPublicConfig } from '../routing/public-config';
import {
  PUBLIC_CONFIG_ELEMENT_ID,
  publicConfigOf,
  type PublicConfig,
} from '../../shared/public-config';
import { renderRoute } from '../entry-prerender';
import { isHomeHash, mountApp } from './mount-app';

const { product } = publicConfigDefaults.store;

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

  const year = new Date().getFullYear();

  /** The page as the server sends it: the home route rendered with its settings and content. */
  async function prerenderedContainer(config: PublicConfig = publicConfigDefaults) {
    container = document.createElement('div');
    container.innerHTML = await renderRoute(paths.home, config, year);
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
    const target = await prerenderedContainer();
    const prerenderedHeading = target.querySelector('h1');

    await act(async () => {
      root = mountApp(target, publicConfigDefaults, '');
    });

    const heading = screen.getByRole('heading', { level: 1, name: new RegExp(product.name) });
    expect(heading).toBe(prerenderedHeading);
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe(
      `#${paths.privacyPolicy}`,
    );
    expect(errors).not.toHaveBeenCalled();
  });

  it('hydrates with the published content the server rendered and embedded in the page', async () => {
    const errors = vi.spyOn(console, 'error');
    const { store } = publicConfigDefaults;
    const config: PublicConfig = publicConfigOf(publicConfigDefaults, {
      ...store,
      product: {
        ...store.product,
        priceCents: 3550,
        compareAtCents: 7100,
        checkoutUrl: 'https://pay.example.com/b/live-42',
      },
      hero: { ...store.hero, title: 'Breathe out: a calmer month starts today' },
    });
    const settings = document.createElement('script');
    settings.type = 'application/json';
    settings.id = PUBLIC_CONFIG_ELEMENT_ID;
    settings.textContent = JSON.stringify(config);
    document.head.append(settings);
    const target = await prerenderedContainer(config);
    const heading = target.querySelector('h1');

    // The server formatted the prices: a browser's first Intl.NumberFormat blocks it 10–40 ms.
    const numberFormat = vi.spyOn(Intl, 'NumberFormat');
    await act(async () => {
      root = mountApp(target, readPublicConfig()!, '');
    });

    expect(numberFormat).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { level: 1 })).toBe(heading);
    expect(heading?.textContent).toBe('Breathe out: a calmer month starts today');
    const buy = screen.getByRole('link', { name: /Download Now – Just \$35\.50/ });
    expect(buy.getAttribute('href')).toBe('https://pay.example.com/b/live-42');
    expect(target.textContent).toContain('50% off – save $35.50');
    expect(errors).not.toHaveBeenCalled();
  });

  it('hydrates a prerendered route the boot script moved into the container', async () => {
    const errors = vi.spyOn(console, 'error');
    window.location.hash = `#${paths.privacyPolicy}`;
    container = document.createElement('div');
    container.innerHTML = await renderRoute(paths.privacyPolicy, publicConfigDefaults, year);
    container.dataset.route = paths.privacyPolicy;
    document.body.append(container);
    const prerenderedHeading = container.querySelector('h1');
    expect(prerenderedHeading?.textContent).toBe('Privacy Policy');

    await act(async () => {
      root = mountApp(container, publicConfigDefaults);
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));

    expect(screen.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBe(
      prerenderedHeading,
    );
    expect(errors).not.toHaveBeenCalled();
  });

  it('replaces the prerendered markup when the hash asks for another route', async () => {
    window.location.hash = `#${paths.privacyPolicy}`;
    const target = await prerenderedContainer();

    await act(async () => {
      root = mountApp(target, publicConfigDefaults);
    });

    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeDefined();
    expect(screen.queryByRole('heading', { name: new RegExp(product.name) })).toBeNull();
    expect(target.querySelectorAll('main')).toHaveLength(1);
  });

  it('shows the container the boot script hid while another route loaded', async () => {
    window.location.hash = `#${paths.privacyPolicy}`;
    const target = await prerenderedContainer();
    target.hidden = true;

    await act(async () => {
      root = mountApp(target, publicConfigDefaults);
    });

    expect(target.hidden).toBe(false);
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeDefined();
  });

  it('renders from scratch when the page holds only the placeholder', async () => {
    container = document.createElement('div');
    container.innerHTML = '<!--app-html-->';
    document.body.append(container);

    await act(async () => {
      root = mountApp(container, publicConfigDefaults, '#/');
    });

    expect(screen.getByRole('heading', { level: 1, name: new RegExp(product.name) })).toBeDefined();
    expect(container.innerHTML).not.toContain('app-html');
  });
});
