import { describe, expect, it } from 'vitest';
import { paths } from '../shared/paths';
import { publicConfigOf } from '../shared/public-config';
import { publicConfigDefaults } from '../shared/public-config-defaults';
import { renderRoute } from './entry-prerender';

const { product } = publicConfigDefaults.store;

async function parse(location: string, year = 2031): Promise<HTMLElement> {
  const root = document.createElement('div');
  root.innerHTML = await renderRoute(location, publicConfigDefaults, year);
  return root;
}

describe('the render entry', () => {
  it('renders the home page with its single h1', async () => {
    const root = await parse(paths.home);

    const headings = root.querySelectorAll('h1');
    expect(headings).toHaveLength(1);
    expect(headings[0]?.textContent).toBe(publicConfigDefaults.store.hero.title);
    expect(root.querySelectorAll('main')).toHaveLength(1);
  });

  it('writes links as hash hrefs, the way the browser router does', async () => {
    const root = await parse(paths.home);

    const hrefs = Array.from(root.querySelectorAll('footer a'), (a) => a.getAttribute('href'));
    expect(hrefs).toContain(`#${paths.privacyPolicy}`);
    expect(hrefs.every((href) => href?.startsWith('#/'))).toBe(true);
  });

  it('writes the year the server serves the page in', async () => {
    const footer = (await parse(paths.home, 2031)).querySelector('footer');
    expect(footer?.textContent).toContain(`© 2031 ${product.name}`);
  });

  it('renders a lazy route whole, not its fallback', async () => {
    const root = await parse(paths.privacyPolicy);
    expect(root.querySelector('h1')?.textContent).toBe('Privacy Policy');
  });

  it('writes a live sale’s end in UTC, and "limited-time" under eu only for an offer that ends', async () => {
    const sale = { priceCents: 1900, endsAt: '2031-12-01T23:00:00.000Z' };
    const onSale = { ...product, priceCents: 1900, compareAtCents: 2700, sale };
    const html = async (priceRules: 'off' | 'eu', shown: typeof product) => {
      const config = publicConfigOf(
        { ...publicConfigDefaults, priceRules },
        { ...publicConfigDefaults.store, product: shown },
      );
      const root = document.createElement('div');
      root.innerHTML = await renderRoute(paths.home, config, 2031);
      return root;
    };
    const root = await html('eu', onSale);
    expect(root.querySelector('[data-testid="sale-end"]')?.textContent).toBe(
      'Sale ends Dec 1, 2031, 11:00 PM UTC',
    );
    expect(root.querySelector('#hero')?.textContent).toContain('Limited-time offer · 30% off');
    const reduced = await html('eu', { ...product, compareAtCents: 8900 });
    expect(reduced.querySelector('#hero')?.textContent).not.toContain('Limited-time');
    expect(reduced.querySelector('#hero')?.textContent).toContain('70% off');
    const typed = await html('off', { ...product, compareAtCents: 8900 });
    expect(typed.querySelector('#hero')?.textContent).toContain('Limited-time offer · 70% off');
  });
});
