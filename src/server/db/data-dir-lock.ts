import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims `dir` for this process. PGlite has no guard of its own: two processes on one data
 * directory lose rows. A lock left by a process that no longer runs (kill -9) is taken over.
 */
export async function lockDataDir(dir: string): Promise<{ release(): Promise<void> }> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'pglite.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await writeFile(file, `${process.pid}\n`, { flag: 'wx' });
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          await rm(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
    if (Number.isInteger(holder) && holder !== process.pid && isRunning(holder)) {
      throw new DataDirLockedError(
        `The data directory ${dir} is in use by another process (pid ${holder}). ` +
          'Stop that process first, or set DATA_DIR to another folder, or use DATABASE_URL ' +
          'to run several instances on PostgreSQL.',
      );
    }
    if (holder === process.pid) {
      throw new DataDirLockedError(`The data directory ${dir} is already open in this process.`);
    }
    await rm(file, { force: true });
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dir}; try again.`);
}
