import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * A new folder under the system's temp folder, open to other users for traversal: under root
 * the embedded PostgreSQL runs as the user postgres, who must reach a DATA_DIR made here
 * (mkdtemp alone makes it private to root).
 */
export async function makeTempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await chmod(dir, 0o755);
  return dir;
}
