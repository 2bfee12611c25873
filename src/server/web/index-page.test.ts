import { describe, expect, it } from 'vitest';
import { PUBLIC_CONFIG_ELEMENT_ID, publicConfigPlaceholders } from '../../shared/public-config';
import { renderIndexPage } from './index-page';

const built = `<!doctype html><html><head><title>x</title></head><body><div id="root"><a href="${publicConfigPlaceholders.checkoutUrl}" target="_blank">Buy</a><a href="${publicConfigPlaceholders.checkoutUrl}">Again</a><a href="${publicConfigPlaceholders.downloadUrl}">Get</a></div></body></html>`;

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
    });
    expect(html).toContain(
      'href="https://pay.example.com/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"',
    );
  });

  it('embeds the settings as non-executable JSON that no value can break out of', () => {
    const config = {
      checkoutUrl: 'https://pay.example.com/</script><script>alert(1)</script><!--',
      downloadUrl: '/d.pdf',
    };
    const html = renderIndexPage(built, config);
    const json = embeddedJson(html);
    expect(json).not.toContain('<');
    expect(JSON.parse(json)).toEqual(config);
    expect(html.indexOf(json)).toBeLessThan(html.indexOf('</head>'));
  });
});
