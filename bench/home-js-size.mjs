// The home route's first-load JavaScript: the entry script of dist/client/index.html plus
// every chunk it preloads, gzip-compressed and counted in kB of 1,000 bytes as Vite's report does. Run after a build:
//   npm run build && node bench/home-js-size.mjs
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const client = fileURLToPath(new URL('../dist/client', import.meta.url));
const html = await readFile(path.join(client, 'index.html'), 'utf8');
const files = [
  ...html.matchAll(/<script\b[^>]*\bsrc="([^"]+\.js)"/g),
  ...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g),
].map((match) => match[1]);

let total = 0;
for (const file of files) {
  const size = gzipSync(await readFile(path.join(client, file))).length;
  total += size;
  console.log(`${(size / 1000).toFixed(2).padStart(8)} kB  ${file}`);
}
console.log(`${(total / 1000).toFixed(2).padStart(8)} kB  home first-load JS (gzip)`);
