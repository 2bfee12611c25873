import type { UploadedFile } from '../../../src/shared/store/files-api';
import { RequestError } from '../../../src/client/lib/api-client';
import {
  UploadCancelled,
  type UploadStoreFile,
} from '../../../src/client/features/store/upload-store-file';

/** One call of the fake: what was sent, and the controls a test answers it with. */
export type FakeUploadCall = {
  kind: string;
  file: File;
  aborted: boolean;
  progress(fraction: number): void;
  succeed(file: Partial<UploadedFile> & { id: string }): void;
  refuse(status: number, message: string): void;
};

/**
 * A stand-in for uploadStoreFile in the pickers' tests: each upload waits until the test
 * reports progress and answers it; abort() rejects it as the real one does, unless
 * `lateAnswers`: then the test may still answer it, as a reply already on its way would.
 */
export function fakeUpload({ lateAnswers = false } = {}): {
  upload: UploadStoreFile;
  calls: FakeUploadCall[];
} {
  const calls: FakeUploadCall[] = [];
  const upload: UploadStoreFile = (kind, file, onProgress) => {
    let resolve!: (file: UploadedFile) => void;
    let reject!: (error: Error) => void;
    const done = new Promise<UploadedFile>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const call: FakeUploadCall = {
      kind,
      file,
      aborted: false,
      progress: onProgress,
      succeed: (answer) =>
        resolve({
          url: null,
          kind,
          name: file.name,
          size: file.size,
          sha256: '0'.repeat(64),
          ...answer,
        }),
      refuse: (status, message) => reject(new RequestError(status, message)),
    };
    calls.push(call);
    return {
      done,
      abort: () => {
        call.aborted = true;
        if (!lateAnswers) reject(new UploadCancelled());
      },
    };
  };
  return { upload, calls };
}
