import { spawn } from 'node:child_process';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_LOCK, DataDirLockedError, lockDataDir } from './data-dir-lock';

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

async function tempDir() {
  return mkdtemp(path.join(os.tmpdir(), 'soul-reset-lock-'));
}

/** The pid of another live process, standing in for a second server. */
function otherLiveProcess(): number {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  children.push(child);
  return child.pid!;
}

describe('lockDataDir', () => {
  it('writes this process id and removes the lock on release', async () => {
    const dir = await tempDir();
    const lock = await lockDataDir(dir);
    expect((await readFile(path.join(dir, APP_LOCK), 'utf8')).trim()).toBe(String(process.pid));
    await lock.release();
    await expect(stat(path.join(dir, APP_LOCK))).rejects.toThrow(/ENOENT/);
  });

  it('refuses a directory held by another running process, with a clear message', async () => {
    const dir = await tempDir();
    const pid = otherLiveProcess();
    await writeFile(path.join(dir, APP_LOCK), `${pid}\n`);
    const attempt = lockDataDir(dir);
    await expect(attempt).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(lockDataDir(dir)).rejects.toThrow(
      `The data directory ${dir} is in use by another process (pid ${pid}).`,
    );
    expect((await readFile(path.join(dir, APP_LOCK), 'utf8')).trim()).toBe(String(pid));
  });

  it('refuses a second lock in the same process', async () => {
    const dir = await tempDir();
    const lock = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toThrow(/already open in this process/);
    await lock.release();
  });

  it('takes over a lock left by a process that died (kill -9)', async () => {
    const dir = await tempDir();
    const child = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => child.on('exit', resolve));
    await writeFile(path.join(dir, APP_LOCK), `${child.pid}\n`);
    const lock = await lockDataDir(dir);
    expect((await readFile(path.join(dir, APP_LOCK), 'utf8')).trim()).toBe(String(process.pid));
    await lock.release();
  });

  it('takes over a stale lock that holds its own pid (a restarted container reuses pids)', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, APP_LOCK), `${process.pid}\n`);
    const lock = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toThrow(/already open in this process/);
    await lock.release();
    await expect(stat(path.join(dir, APP_LOCK))).rejects.toThrow(/ENOENT/);
  });

  it('creates the data directory and its parents', async () => {
    const dir = path.join(await tempDir(), 'a', 'b');
    const lock = await lockDataDir(dir);
    expect((await stat(dir)).isDirectory()).toBe(true);
    await lock.release();
  });
});
