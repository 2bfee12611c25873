// A hash of everything a build is made from, so `npm start` rebuilds only when it changed.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const inputs = [
  'src',
  'scripts/build.mjs',
  'scripts/build-client.mjs',
  'vite.config.ts',
  'package-lock.json',
];

export async function sourceFingerprint(root) {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const file of await listFiles(path.join(root, input))) {
      if (/\.test\.tsx?$/.test(file)) continue;
      hash.update(path.relative(root, file));
      hash.update('\0');
      hash.update(await readFile(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

async function listFiles(target) {
  const entries = await readdir(target, { recursive: true, withFileTypes: true }).catch((error) => {
    if (error.code === 'ENOTDIR') return null;
    throw error;
  });
  if (entries === null) return [target];
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}
