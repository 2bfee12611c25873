// Builds everything `npm start` runs: the browser bundle and the public routes' renderer,
// the server bundle with its migrations and the admin table configurations, then records
// which sources it was built from.
import { build as esbuild } from 'esbuild';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { buildClient } from './build-client.mjs';
import { sourceFingerprint } from './fingerprint.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

export async function buildAll() {
  const started = Date.now();
  await rm(path.join(root, 'dist'), { recursive: true, force: true });
  await buildClient({ root });
  await precompress(path.join(root, 'dist/client'));
  await buildServer();
  await writeFile(
    path.join(root, 'dist/build-info.json'),
    JSON.stringify({
      fingerprint: await sourceFingerprint(root),
      builtAt: new Date().toISOString(),
    }),
  );
  console.log(`Built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

async function buildServer() {
  await esbuild({
    entryPoints: {
      index: path.join(root, 'src/server/index.ts'),
      // The mail thread's entry: src/server/mail/mail-thread.ts starts it from beside itself.
      'mail-worker': path.join(root, 'src/server/mail-worker.ts'),
      'migrate-cli': path.join(root, 'src/server/migrate-cli.ts'),
      'backup-cli': path.join(root, 'src/server/backup/backup-cli.ts'),
    },
    outdir: path.join(root, 'dist/server'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    // Shared code in chunks beside the entries (modules find their files relative to
    // themselves), so the entry can start the database before the app's modules load.
    splitting: true,
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  await mkdir(path.join(root, 'dist/server/migrations'), { recursive: true });
  await cp(path.join(root, 'src/server/db/migrations'), path.join(root, 'dist/server/migrations'), {
    recursive: true,
  });
  // At the depth the bundle looks for them: see tableConfigurationsDir in src/server/app.ts.
  await cp(
    path.join(root, 'src/shared/table-configurations'),
    path.join(root, 'dist/shared/table-configurations'),
    { recursive: true },
  );
}

/** Brotli and gzip copies of text assets, served by @fastify/static's preCompressed. */
async function precompress(dir) {
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(html|js|css|svg|txt|json)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const content = await readFile(file);
    if (content.length < 1024) continue;
    await writeFile(`${file}.br`, await brotli(content));
    await writeFile(`${file}.gz`, await gzip(content, { level: 9 }));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildAll();
}
