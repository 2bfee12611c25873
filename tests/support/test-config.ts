import { makeTempDir } from './temp-dir';
import { loadConfig, type Config } from '../../src/server/config/load-config';

/** A valid configuration for tests, parsed by the real schema, with a temporary DATA_DIR. */
export async function testConfig(env: NodeJS.ProcessEnv = {}): Promise<Config> {
  const dataDir = await makeTempDir('soul-reset-data-');
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...env });
}
