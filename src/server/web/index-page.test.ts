import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { COPYRIGHT_YEAR_PLACEHOLDER } from '../../shared/copyright-year';
import { PUBLIC_CONFIG_ELEMENT_ID, publicConfigPlaceholders } from '../../shared/public-config';
import { pageOfTheYear, renderIndexPage } from './index-page';

const built = `<!doctype html><html><head><title>x</title></head><body><div id="root"><p>© <!-- -->${COPYRIGHT_YEAR_PLACEHOLDER}<!-- --> Soul Reset Bundle</p><a href="${publicConfigPlaceholders.checkoutUrl}" target="_blank">Buy</a><a href="${publicConfigPlaceholders.checkoutUrl}">Again</a><a href="${publicConfigPlaceholders.downloadUrl}">Get</a></div></body></html>`;

function embeddedJson(html: string): string {
  const match = new RegExp(
    `<script type="application/json" id="${PUBLIC_CONFIG_ELEMENT_ID}">(.*?)</script>`,
  ).exec(html);
  if (!match?.[1]) throw new Error('no embedded settings');
  return match[1];
}

describe('renderIndexPage', () => {
  it('puts the configured URLs into every placeholder link', () => {
    const html = renderIndexPage(built, {
      checkoutUrl: 'https://pay.example.com/b/abc?x=1&y=2',
      downloadUrl: '/files/bundle.pdf',
      verifiedPurchases: false,
    });
    expect(html).not.toContain('__CHECKOUT_URL__');
    expect(html).not.toContain('__DOWNLOAD_URL__');
    expect(html.match(/href="https:\/\/pay\.example\.com\/b\/abc\?x=1&amp;y=2"/g)).toHaveLength(2);
    expect(html).toContain('href="/files/bundle.pdf"');
  });

  it('escapes values so that they cannot leave the attribute', () => {
    const html = renderIndexPage(built, {
      checkoutUrl: 'https://pay.example.com/"><script>alert(1)</script>',
      downloadUrl: '/d.pdf',
      verifiedPurchases: false,
    });
    expect(html).toContain(
      'href="https://pay.example.com/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"',
    );
  });

  it('embeds the settings as non-executable JSON that no value can break out of', () => {
    const config = {
      checkoutUrl: 'https://pay.example.com/</script><script>alert(1)</script><!--',
      downloadUrl: '/d.pdf',
      verifiedPurchases: false,
    };
    const html = renderIndexPage(built, config, 2031);
    const json = embeddedJson(html);
    expect(json).not.toContain('<');
    expect(JSON.parse(json)).toEqual({ ...config, copyrightYear: 2031 });
    expect(html.indexOf(json)).toBeLessThan(html.indexOf('</head>'));
  });
});

describe('the thank-you route with verified purchases', () => {
  const withTemplates = built.replace(
    '</body>',
    `<template data-route="/thank-you"><main><h1>Thank You for Your Purchase!</h1><a href="${publicConfigPlaceholders.downloadUrl}">Download Now</a></main></template><template data-route="/privacy-policy"><main><h1>Privacy Policy</h1></main></template><script>boot()</script></body>`,
  );
  const config = {
    checkoutUrl: 'https://pay.example.com/b',
    downloadUrl: '/files/the-whole-bundle.zip',
  };

  it('keeps the seed page, with the configured download, while purchases are not verified', () => {
    const html = renderIndexPage(withTemplates, { ...config, verifiedPurchases: false });
    expect(html).toContain('<template data-route="/thank-you"><main><h1>Thank You');
    expect(html).toContain('href="/files/the-whole-bundle.zip">Download Now</a></main></template>');
    expect(JSON.parse(embeddedJson(html))).toMatchObject({
      downloadUrl: config.downloadUrl,
      verifiedPurchases: false,
    });
  });

  it('leaves the seed page and the download URL out of the page when they are', () => {
    const html = renderIndexPage(withTemplates, { ...config, verifiedPurchases: true });
    expect(html).not.toContain('data-route="/thank-you"');
    expect(html).not.toContain('Thank You for Your Purchase!');
    expect(html).not.toContain(config.downloadUrl);
    expect(html).not.toContain('the-whole-bundle');
    expect(html).not.toContain(publicConfigPlaceholders.downloadUrl);
    // Everything around it stays: the other routes, the boot script, the home page's links.
    expect(html).toContain(
      '<template data-route="/privacy-policy"><main><h1>Privacy Policy</h1></main></template><script>boot()</script></body>',
    );
    expect(html).toContain('href="https://pay.example.com/b"');
    expect(JSON.parse(embeddedJson(html))).toMatchObject({
      checkoutUrl: config.checkoutUrl,
      downloadUrl: '',
      verifiedPurchases: true,
    });
  });
});

describe('copyright year', () => {
  const config = {
    checkoutUrl: 'https://pay.example.com/b',
    downloadUrl: '/d.pdf',
    verifiedPurchases: false,
  };

  it('writes the current UTC year into the footer and the settings', () => {
    const year = new Date().getUTCFullYear();
    const html = renderIndexPage(built, config);
    expect(html).not.toContain(COPYRIGHT_YEAR_PLACEHOLDER);
    expect(html).toContain(`© <!-- -->${year}<!-- --> Soul Reset Bundle`);
    expect(JSON.parse(embeddedJson(html))).toMatchObject({ copyrightYear: year });
  });

  it('renders the page again on the first request after New Year, and only then', async () => {
    let now = new Date('2030-12-31T23:59:59Z');
    const renders: number[] = [];
    const page = pageOfTheYear(
      (year) => {
        renders.push(year);
        return renderIndexPage(built, config, year);
      },
      () => now,
    );
    const text = async () => brotliDecompressSync((await page()).br).toString();

    expect(await text()).toContain('© <!-- -->2030<!-- -->');
    expect(await text()).toContain('© <!-- -->2030<!-- -->');
    now = new Date('2031-01-01T00:00:01Z');
    expect(await text()).toContain('© <!-- -->2031<!-- -->');
    expect(renders).toEqual([2030, 2031]);
  });
});
