import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/server/config/load-config';

/** A valid configuration for tests, parsed by the real schema, with a temporary DATA_DIR. */
export async function testConfig(env: NodeJS.ProcessEnv = {}): Promise<Config> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'soul-reset-data-'));
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...env });
}
