import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { homeJsSize } from '../../scripts/home-js-size.mjs';

/**
 * What the home HTML loads first: its scripts with every chunk they import statically, and
 * its stylesheets; raw and gzip -9 bytes.
 */
export async function firstLoadBytes(clientDir: string) {
  const js = await homeJsSize(clientDir);
  const html = await readFile(path.join(clientDir, 'index.html'), 'utf8');
  const stylesheets = [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="\/([^"]+)"/g)];
  let raw = 0;
  let gzip = 0;
  for (const file of new Set(stylesheets.map((match) => match[1]!))) {
    const content = await readFile(path.join(clientDir, file));
    raw += content.length;
    gzip += gzipSync(content, { level: 9 }).length;
  }
  return { js: { raw: js.raw, gzip: js.gzip }, css: { raw, gzip } };
}
