import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** Bytes of the scripts, module preloads and stylesheets the home HTML loads first. */
export async function firstLoadBytes(clientDir: string) {
  const html = await readFile(path.join(clientDir, 'index.html'), 'utf8');
  const assets = (pattern: RegExp) =>
    [...html.matchAll(pattern)].map((match) => match[1]!).filter((href) => href.startsWith('/'));
  const js = [
    ...assets(/<script\b[^>]*\bsrc="([^"]+)"/g),
    ...assets(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ];
  const css = assets(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g);
  const measure = async (files: string[]) => {
    let raw = 0;
    let gzip = 0;
    for (const file of new Set(files)) {
      const content = await readFile(path.join(clientDir, file));
      raw += content.length;
      gzip += gzipSync(content, { level: 9 }).length;
    }
    return { raw, gzip };
  };
  return { js: await measure(js), css: await measure(css) };
}
