import { act, screen } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paths } from '../../shared/paths';
import { product } from '../../shared/product';
import { render as prerender } from '../entry-prerender';
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

  function prerenderedContainer(): HTMLElement {
    container = document.createElement('div');
    container.innerHTML = prerender();
    document.body.append(container);
    return container;
  }

  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    container.remove();
    window.location.hash = '';
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
