import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, type Config } from './load-config';

const MIN_LENGTH = 32;

/**
 * Returns AUTH_SECRET, or outside production a secret generated once into DATA_DIR, so that
 * sessions survive restarts without any setup.
 */
export async function ensureAuthSecret(config: Config): Promise<string> {
  if (config.authSecret) return config.authSecret;
  const file = path.join(config.dataDir, 'auth-secret');
  const existing = await readSecret(file);
  if (existing !== null) return existing;
  await mkdir(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    // 'wx' so that two processes starting together cannot overwrite each other's secret.
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readSecret(file))!;
  }
}

async function readSecret(file: string): Promise<string | null> {
  let secret: string;
  try {
    secret = (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (secret.length < MIN_LENGTH) {
    throw new ConfigError(
      `${file} holds a secret shorter than ${MIN_LENGTH} characters; delete the file to generate a new one, or set AUTH_SECRET.`,
    );
  }
  return secret;
}
