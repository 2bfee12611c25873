import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { paths } from '../../shared/paths';
import { prerenderedRoutes } from '../../shared/prerendered-routes';
import { PUBLIC_CONFIG_ELEMENT_ID, type PublicConfig } from '../../shared/public-config';
import { publicConfigDefaults } from '../../shared/public-config-defaults';
import { renderIndexPage, servedPage, type RenderRoute } from './index-page';

const built =
  '<!doctype html><html><head><title>x</title></head><body>' +
  '<div id="root"><!--app-html--></div>\n    <!--route-templates--><script>boot()</script></body></html>';

/** A stand-in for the React renderer: what it was asked to render, and with what. */
const renderRoute: RenderRoute = async (location, config, year) =>
  `<main data-location="${location}"><h1>${config.store.hero.title}</h1><a href="${config.downloadUrl}">Get</a><p>© ${year}</p></main>`;

function embeddedJson(html: string): string {
  const match = new RegExp(
    `<script type="application/json" id="${PUBLIC_CONFIG_ELEMENT_ID}">(.*?)</script>`,
  ).exec(html);
  if (!match?.[1]) throw new Error('no embedded settings');
  return match[1];
}

const config: PublicConfig = {
  ...publicConfigDefaults,
  downloadUrl: '/files/the-whole-bundle.zip',
};

describe('renderIndexPage', () => {
  it('renders home into #root and every other public route into its template', async () => {
    const html = await renderIndexPage(built, config, renderRoute, 2031);
    expect(html).toContain(
      `<div id="root"><main data-location="/"><h1>${config.store.hero.title}</h1>`,
    );
    for (const route of prerenderedRoutes.filter((route) => route !== paths.home)) {
      expect(html).toContain(`<template data-route="${route}"><main data-location="${route}">`);
    }
    expect(html).not.toContain('<!--app-html-->');
    expect(html).not.toContain('<!--route-templates-->');
    expect(html.indexOf('</template><script>boot()</script>')).toBeGreaterThan(0);
  });

  it('embeds the settings, content and year as non-executable JSON that no value can break out of', async () => {
    const hostile: PublicConfig = {
      ...config,
      store: {
        ...config.store,
        hero: { ...config.store.hero, title: '</script><script>alert(1)</script><!--' },
      },
    };
    const html = await renderIndexPage(built, hostile, renderRoute, 2031);
    const json = embeddedJson(html);
    expect(json).not.toContain('<');
    expect(JSON.parse(json)).toEqual({ ...hostile, copyrightYear: 2031 });
    expect(html.indexOf(json)).toBeLessThan(html.indexOf('</head>'));
  });

  it('leaves the rendering to the browser when the site was built without its renderer', async () => {
    const html = await renderIndexPage(built, config, undefined, 2031);
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('<template');
    expect(JSON.parse(embeddedJson(html))).toMatchObject({ copyrightYear: 2031 });
  });

  it('refuses a page the build did not leave room in', async () => {
    await expect(
      renderIndexPage('<html><head></head><body></body></html>', config, renderRoute),
    ).rejects.toThrow('index.html has no place for the rendered routes: run npm run build.');
  });
});

describe('the thank-you route with verified purchases', () => {
  it('keeps the seed page, with the configured download, while purchases are not verified', async () => {
    const html = await renderIndexPage(built, config, renderRoute);
    expect(html).toContain(`<template data-route="${paths.thankYou}">`);
    expect(html).toContain('href="/files/the-whole-bundle.zip"');
    expect(JSON.parse(embeddedJson(html))).toMatchObject({
      downloadUrl: config.downloadUrl,
      verifiedPurchases: false,
    });
  });

  it('leaves the seed page and the download URL out of the page when they are', async () => {
    const html = await renderIndexPage(built, { ...config, verifiedPurchases: true }, renderRoute);
    expect(html).not.toContain(`data-route="${paths.thankYou}"`);
    expect(html).not.toContain('the-whole-bundle');
    expect(html).toContain(`<template data-route="${paths.privacyPolicy}">`);
    expect(JSON.parse(embeddedJson(html))).toMatchObject({
      downloadUrl: '',
      verifiedPurchases: true,
    });
  });
});

describe('servedPage', () => {
  it('renders again on the first request after New Year or a publish, and only then', async () => {
    let now = new Date('2030-12-31T23:59:59Z');
    let version = 1;
    const renders: string[] = [];
    const page = servedPage(
      (year) => {
        renders.push(`${version}/${year}`);
        return renderIndexPage(built, config, renderRoute, year);
      },
      () => version,
      () => now,
    );
    const text = async () => brotliDecompressSync((await page()).br).toString();

    expect(await text()).toContain('© 2030');
    expect(await text()).toContain('© 2030');
    now = new Date('2031-01-01T00:00:01Z');
    expect(await text()).toContain('© 2031');
    version = 2;
    await page();
    await page();
    expect(renders).toEqual(['1/2030', '1/2031', '2/2031']);
  });

  it('tries a failed render again on the next request', async () => {
    let fail = true;
    const page = servedPage(
      async (year) => {
        if (fail) throw new Error('renderer broke');
        return renderIndexPage(built, config, renderRoute, year);
      },
      () => 1,
    );
    await expect(page()).rejects.toThrow('renderer broke');
    fail = false;
    expect((await page()).plain.toString()).toContain('<main data-location="/">');
  });
});
