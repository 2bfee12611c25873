// Builds dist/ when it is missing or was built from other sources than the ones present.
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sourceFingerprint } from './fingerprint.mjs';

export async function ensureBuild(root) {
  const info = await readFile(path.join(root, 'dist/build-info.json'), 'utf8')
    .then(JSON.parse)
    .catch(() => null);
  if (info?.fingerprint === (await sourceFingerprint(root))) return false;
  console.log(
    info ? 'Sources changed since the last build: rebuilding...' : 'Building the site...',
  );
  // A child process: the build sets NODE_ENV=production, which must not leak into the server.
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], {
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error('The build failed; see the messages above.');
    process.exit(result.status ?? 1);
  }
  return true;
}
