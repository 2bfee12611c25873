import { describe, expect, it } from 'vitest';
import { paths } from '../shared/paths';
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
});
