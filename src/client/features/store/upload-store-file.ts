import {
  STORE_FILES_PATH,
  type StoreFileKind,
  type UploadedFile,
} from '../../../shared/store/files-api';
import { RequestError, UNREACHABLE_MESSAGE, watchSession } from '../../lib/api-client';

/** An upload under way: its answer, and a way to stop it. */
export type StoreUpload = {
  /**
   * The server's answer; a RequestError with its message when refused (status 0 without a
   * connection), an UploadCancelled after abort().
   */
  done: Promise<UploadedFile>;
  abort(): void;
};

/** What the pickers take, so a test can hand them a fake. */
export type UploadStoreFile = typeof uploadStoreFile;

/** The rejection of an upload stopped by abort(): not an error to show. */
export class UploadCancelled extends Error {
  constructor() {
    super('The upload was cancelled.');
    this.name = 'UploadCancelled';
  }
}

/** A proxy in front of the app may refuse a large body with a page of its own, not JSON. */
const TOO_LARGE_MESSAGE = 'This file is too large to upload.';

type Answer = { message?: unknown } | null;

function parse(body: string): Answer {
  try {
    return JSON.parse(body) as Answer;
  } catch {
    return null; // Not the app's JSON: a general text instead.
  }
}

function refusal(status: number, body: string): RequestError {
  const answer = parse(body);
  const message =
    typeof answer?.message === 'string' && answer.message
      ? answer.message
      : status === 413
        ? TOO_LARGE_MESSAGE
        : UNREACHABLE_MESSAGE;
  return new RequestError(status, message);
}

/**
 * Uploads `file` as `kind` to the store (POST STORE_FILES_PATH, the form's `kind` before its
 * `file`, as the server requires). XMLHttpRequest rather than fetch: only it reports how much
 * of the body has gone, which `onProgress` receives as a fraction from 0 to 1 (1 once all is
 * sent; the server may still be re-encoding an image). Same origin, so the session cookie goes
 * along (as fetch's `credentials: 'same-origin'`); a 401 tells the session listeners, as every
 * other admin call does.
 */
export function uploadStoreFile(
  kind: StoreFileKind,
  file: File,
  onProgress: (fraction: number) => void,
): StoreUpload {
  const request = new XMLHttpRequest();
  const answer = new Promise<UploadedFile>((resolve, reject) => {
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress(Math.min(1, event.loaded / event.total));
      }
    });
    request.addEventListener('load', () => {
      if (request.status < 200 || request.status >= 300) {
        reject(refusal(request.status, request.responseText));
        return;
      }
      try {
        resolve(JSON.parse(request.responseText) as UploadedFile);
      } catch {
        reject(new RequestError(request.status, UNREACHABLE_MESSAGE));
      }
    });
    request.addEventListener('error', () => reject(new RequestError(0, UNREACHABLE_MESSAGE)));
    request.addEventListener('abort', () => reject(new UploadCancelled()));

    const form = new FormData();
    form.append('kind', kind);
    form.append('file', file, file.name);
    request.open('POST', STORE_FILES_PATH);
    request.setRequestHeader('accept', 'application/json');
    request.send(form);
  });
  return { done: watchSession(answer), abort: () => request.abort() };
}
