import { spawnSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';

/** The last release whose default database was PGlite: the reference the embedded server beats. */
export const PGLITE_RELEASE = 'faa9f2d';

/**
 * That release's sources from this repository's history, built, in `dir`, sharing this
 * checkout's node_modules (its dependencies are a subset of today's, at the same versions).
 * Returns its root, or a reason when the history lacks it (a shallow clone).
 */
export async function preparePgliteRelease(
  root: string,
  dir: string,
): Promise<{ root: string } | { skipped: string }> {
  await mkdir(dir, { recursive: true });
  const archive = spawnSync('git', ['-C', root, 'archive', '--format=tar', PGLITE_RELEASE], {
    maxBuffer: 512 * 1024 * 1024,
  });
  if (archive.status !== 0) {
    return { skipped: `commit ${PGLITE_RELEASE} is not in this clone's history` };
  }
  const extract = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (extract.status !== 0) throw new Error(`Could not unpack ${PGLITE_RELEASE}.`);
  await symlink(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  const build = spawnSync(process.execPath, [path.join(dir, 'scripts/build.mjs')], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) throw new Error(`Could not build ${PGLITE_RELEASE}.`);
  return { root: dir };
}
