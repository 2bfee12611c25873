import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';

/**
 * A built site in the shape the build writes: index.html with room for the rendered routes,
 * and beside dist/client a renderer (here a stand-in for the React bundle, which
 * tests/e2e and src/server/web/store-page.test.ts run for real).
 */
export async function fakeClientBuild() {
  const dist = await mkdtemp(path.join(os.tmpdir(), 'soul-reset-dist-'));
  const dir = path.join(dist, 'client');
  await mkdir(path.join(dir, 'assets'), { recursive: true });
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><title>Home</title></head><body>' +
      '<div id="root"><!--app-html--></div><!--route-templates--></body></html>',
  );
  await mkdir(path.join(dist, 'render'));
  await writeFile(
    path.join(dist, 'render', 'entry-prerender.js'),
    'export async function renderRoute(location, config) {\n' +
      "  return location === '/' ? `<h1>Home</h1><a href=\"${config.store.product.checkoutUrl}\">Buy</a>` : '<main></main>';\n" +
      '}\n',
  );
  // What the build writes beside it; the server must serve its own rendering instead.
  await writeFile(path.join(dir, 'index.html.br'), brotliCompressSync('<h1>Stale</h1>'));
  await mkdir(path.join(dir, 'downloads'));
  await writeFile(path.join(dir, 'downloads', 'guide.pdf'), '%PDF-1.4\n%%EOF\n');
  const script = `console.log(${JSON.stringify('x'.repeat(2000))});`;
  await writeFile(path.join(dir, 'assets', 'index-abc123.js'), script);
  await writeFile(path.join(dir, 'assets', 'index-abc123.js.br'), brotliCompressSync(script));
  return dir;
}
