/**
 * GET backupPath (admin only): the whole database as one backup file, streamed as
 * application/gzip with `Content-Disposition: attachment; filename="soul-reset-backup-<date>…"`.
 * Errors answer `{ error, message }` like every admin route.
 */
export const backupPath = '/api/admin/backup';
