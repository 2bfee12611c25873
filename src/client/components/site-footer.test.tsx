import { act } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PUBLIC_CONFIG_ELEMENT_ID } from '../../shared/public-config';
import { publicConfigDefaults } from '../../shared/public-config-defaults';
import { PublicConfigProvider } from '../routing/public-config';
import { StaticRouter } from '../routing/router';
import { SiteFooter } from './site-footer';
import { setPrerenderYear } from './use-copyright-year';

const footer = (
  <PublicConfigProvider value={publicConfigDefaults}>
    <StaticRouter location="/">
      <SiteFooter />
    </StaticRouter>
  </PublicConfigProvider>
);

describe('SiteFooter copyright year', () => {
  let root: Root | undefined;
  let container: HTMLElement;

  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    container?.remove();
    document.getElementById(PUBLIC_CONFIG_ELEMENT_ID)?.remove();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  /** The footer as the server serves it in `servedYear`, with that year in the settings. */
  function served(servedYear: number): HTMLElement {
    const settings = document.createElement('script');
    settings.type = 'application/json';
    settings.id = PUBLIC_CONFIG_ELEMENT_ID;
    settings.textContent = JSON.stringify({ copyrightYear: servedYear });
    document.head.append(settings);
    container = document.createElement('div');
    // As the server renders the page.
    setPrerenderYear(servedYear);
    container.innerHTML = renderToString(footer);
    setPrerenderYear(undefined);
    document.body.append(container);
    return container;
  }

  it('shows the current year, not a fixed one', () => {
    vi.useFakeTimers({ now: new Date(2031, 5, 1), toFake: ['Date'] });
    container = document.createElement('div');
    document.body.append(container);
    act(() => {
      root = createRoot(container);
      root.render(footer);
    });
    expect(container.textContent).toContain('© 2031 Soul Reset Bundle. All rights reserved.');
  });

  it('hydrates the served year without a mismatch', () => {
    vi.useFakeTimers({ now: new Date(2030, 5, 1), toFake: ['Date'] });
    const errors = vi.spyOn(console, 'error');
    const target = served(2030);
    const text = target.querySelector('p.text-sm');
    act(() => {
      root = hydrateRoot(target, footer);
    });
    expect(target.textContent).toContain('© 2030 Soul Reset Bundle');
    expect(target.querySelector('p.text-sm')).toBe(text);
    expect(errors).not.toHaveBeenCalled();
  });

  it("moves to the visitor's year after hydrating a page served in the old year", () => {
    vi.useFakeTimers({ now: new Date(2031, 0, 1, 0, 5), toFake: ['Date'] });
    const errors = vi.spyOn(console, 'error');
    const target = served(2030);
    act(() => {
      root = hydrateRoot(target, footer, { onRecoverableError: (error) => console.error(error) });
    });
    expect(target.textContent).toContain('© 2031 Soul Reset Bundle');
    expect(errors).not.toHaveBeenCalled();
  });
});
