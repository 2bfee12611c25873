import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isRunning } from './is-running';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

/** The app's claim on DATA_DIR: its embedded database, outbox and secrets. */
export const APP_LOCK = 'app.lock';

/** Lock files this process holds, so that its own pid in a file it did not write is stale. */
const held = new Set<string>();

/**
 * Claims `dir` for this process: one app per data directory, because its embedded server
 * belongs to the app that started it. A lock left by a process that no longer runs (kill -9)
 * is taken over, also when a restarted container gives the new process the old one's pid.
 */
export async function lockDataDir(
  dir: string,
  name: string = APP_LOCK,
): Promise<{ release(): Promise<void> }> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  if (held.has(file)) {
    throw new DataDirLockedError(`The data directory ${dir} is already open in this process.`);
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await writeFile(file, `${process.pid}\n`, { flag: 'wx' });
      held.add(file);
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          await rm(file, { force: true });
          held.delete(file);
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
    await rm(file, { force: true });
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dir}; try again.`);
}
