import { describe, expect, it } from 'vitest';
import { COPYRIGHT_YEAR_PLACEHOLDER } from '../shared/copyright-year';
import { paths } from '../shared/paths';
import { product } from '../shared/product';
import { render } from './entry-prerender';

function parse(markup: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = markup;
  return root;
}

describe('prerender entry', () => {
  it('renders the home page with its single h1', () => {
    const root = parse(render());

    const headings = root.querySelectorAll('h1');
    expect(headings).toHaveLength(1);
    expect(headings[0]?.textContent).toContain(product.name);
    expect(root.querySelectorAll('main')).toHaveLength(1);
  });

  it('writes links as hash hrefs, the way the browser router does', () => {
    const root = parse(render());

    const hrefs = Array.from(root.querySelectorAll('footer a'), (a) => a.getAttribute('href'));
    expect(hrefs).toContain(`#${paths.privacyPolicy}`);
    expect(hrefs.every((href) => href?.startsWith('#/'))).toBe(true);
  });

  it('leaves the copyright year for the server to fill in when it serves the page', () => {
    const footer = parse(render()).querySelector('footer');
    expect(footer?.textContent).toContain(`© ${COPYRIGHT_YEAR_PLACEHOLDER} ${product.name}`);
  });
});
