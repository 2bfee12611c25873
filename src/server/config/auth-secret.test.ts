import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../../tests/support/test-config';
import { ensureAuthSecret } from './auth-secret';

describe('ensureAuthSecret', () => {
  it('generates a secret once into DATA_DIR, readable only by the owner, and reuses it', async () => {
    const config = await testConfig();
    const first = await ensureAuthSecret(config);
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = path.join(config.dataDir, 'auth-secret');
    expect((await readFile(file, 'utf8')).trim()).toBe(first);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await ensureAuthSecret(config)).toBe(first);
  });

  it('gives every data directory its own secret', async () => {
    const a = await ensureAuthSecret(await testConfig());
    const b = await ensureAuthSecret(await testConfig());
    expect(a).not.toBe(b);
  });

  it('uses AUTH_SECRET when set and writes nothing', async () => {
    const config = await testConfig({ AUTH_SECRET: 's'.repeat(32) });
    expect(await ensureAuthSecret(config)).toBe('s'.repeat(32));
    await expect(stat(path.join(config.dataDir, 'auth-secret'))).rejects.toThrow(/ENOENT/);
  });

  it('agrees on one secret when two processes start at once', async () => {
    const config = await testConfig();
    const secrets = await Promise.all([ensureAuthSecret(config), ensureAuthSecret(config)]);
    expect(secrets[0]).toBe(secrets[1]);
  });

  it('refuses a secret file that is too short, saying how to fix it', async () => {
    const config = await testConfig();
    await writeFile(path.join(config.dataDir, 'auth-secret'), 'short\n');
    await expect(ensureAuthSecret(config)).rejects.toThrow(
      /auth-secret holds a secret shorter than 32 characters; delete the file/,
    );
  });
});
