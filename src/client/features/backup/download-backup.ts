import type { ApiError } from '../../../shared/auth';
import { backupPath } from '../../../shared/admin/backup-api';
import { downloadFile } from '../../lib/download-file';
import { RequestError, watchSession } from '../../lib/api-client';

export const backupMessages = {
  unreachable: 'The site could not be reached. Please check your connection and try again.',
  failed: 'The backup could not be made. Please try again in a moment.',
} as const;

const FALLBACK_NAME = 'soul-reset-backup.jsonl.gz';

/** The file name the server gave, or a plain one. */
export function fileNameFrom(disposition: string | null): string {
  const name = /filename="([^"]+)"/.exec(disposition ?? '')?.[1];
  return name && /^[\w.-]+$/.test(name) ? name : FALLBACK_NAME;
}

/**
 * Asks the server for a backup and saves it; resolves with the file's name. Rejects with a
 * RequestError (status 0 when the server could not be reached) carrying a message to show.
 */
export function downloadBackup(): Promise<string> {
  return watchSession(fetchBackup());
}

async function fetchBackup(): Promise<string> {
  let response: Response;
  let blob: Blob;
  try {
    response = await fetch(backupPath, { credentials: 'same-origin' });
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as ApiError | null;
      throw new RequestError(response.status, body?.message || backupMessages.failed);
    }
    blob = await response.blob();
  } catch (error) {
    if (error instanceof RequestError) throw error;
    throw new RequestError(0, backupMessages.unreachable);
  }
  const name = fileNameFrom(response.headers.get('content-disposition'));
  downloadFile(name, [blob], blob.type);
  return name;
}
