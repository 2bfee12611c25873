// Measures the JavaScript the home page loads before it is interactive: the scripts and
// modulepreloads of dist/client/index.html, the modules its start script starts (named by
// absolute /assets/ paths in the page), and every chunk they import statically (lazy `import()` chunks,
// named by relative paths, are not counted). Prints raw and gzip bytes; with --max-gzip=N exits 1
// when the gzip total is above N bytes.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const gzip = promisify(zlib.gzip);
const BOOT_MODULE = /["'](\/assets\/[^"']+\.js)["']/g;
const STATIC_IMPORT =
  /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]+from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;

/** @returns {Promise<{ files: { file: string, raw: number, gzip: number }[], raw: number, gzip: number }>} */
export async function homeJsSize(clientDir) {
  const html = await readFile(path.join(clientDir, 'index.html'), 'utf8');
  const queue = [
    ...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="\/([^"]+\.js)"/g),
    ...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="\/([^"]+\.js)"/g),
    ...[...html.matchAll(BOOT_MODULE)].map((match) => [match[0], match[1].slice(1)]),
  ].map((match) => match[1]);
  const seen = new Set();
  const files = [];
  while (queue.length > 0) {
    const file = queue.shift();
    if (seen.has(file)) continue;
    seen.add(file);
    const code = await readFile(path.join(clientDir, file));
    files.push({ file, raw: code.length, gzip: (await gzip(code, { level: 9 })).length });
    const text = code.toString('utf8');
    for (const match of text.matchAll(STATIC_IMPORT)) {
      queue.push(path.posix.join(path.posix.dirname(file), match[1]));
    }
    for (const match of text.matchAll(BOOT_MODULE)) queue.push(match[1].slice(1));
  }
  const sum = (key) => files.reduce((total, entry) => total + entry[key], 0);
  return { files, raw: sum('raw'), gzip: sum('gzip') };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const result = await homeJsSize(path.join(root, 'dist/client'));
  for (const { file, raw, gzip: gz } of result.files) {
    console.log(
      `${file.padEnd(48)} ${String(raw).padStart(8)} B  ${String(gz).padStart(7)} B gzip`,
    );
  }
  console.log(
    `${'home first-load JS'.padEnd(48)} ${String(result.raw).padStart(8)} B  ${String(result.gzip).padStart(7)} B gzip`,
  );
  const max = process.argv.find((arg) => arg.startsWith('--max-gzip='));
  if (max && result.gzip > Number(max.split('=')[1])) {
    console.error(`Over budget: ${result.gzip} B gzip > ${max.split('=')[1]} B.`);
    process.exit(1);
  }
}
