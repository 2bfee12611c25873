import type { FastifyPluginAsync } from 'fastify';
import { mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { backupPath } from '../../shared/admin/backup-api';
import { ADMIN_PREFIX } from '../admin/admin-plugin';
import { attachment } from '../http/content-disposition';
import { backupFileName } from './backup-format';
import { readSnapshot } from './read-snapshot';
import { writeBackupFile } from './write-backup-file';

/**
 * GET /api/admin/backup, inside the admin scope. The snapshot is written to a temporary file
 * first and then sent: the database transaction lasts as long as the writing, not as long as
 * a slow download (on the embedded database other requests wait for it), and a failure
 * answers an error instead of a cut-off file. The file is unlinked once open.
 */
export const backupRoutes: FastifyPluginAsync = async (scope) => {
  scope.get(backupPath.slice(ADMIN_PREFIX.length), async (request, reply) => {
    const { database } = request.server;
    const takenAt = new Date();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'soul-reset-backup-'));
    try {
      const file = path.join(dir, 'backup.jsonl.gz');
      const summary = await writeBackupFile(readSnapshot(database.db, database.kind), file);
      const handle = await open(file);
      const { size } = await handle.stat();
      request.log.info({ ...summary, bytes: size }, 'backup written');
      return reply
        .header('content-type', 'application/gzip')
        .header('content-length', size)
        .header('content-disposition', attachment(backupFileName(takenAt), { exactName: false }))
        .send(handle.createReadStream());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
};
