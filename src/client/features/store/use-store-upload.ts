import { useCallback, useEffect, useRef, useState } from 'react';
import {
  fileSummary,
  type StoreFileKind,
  type StoreFileSummary,
  type UploadedFile,
} from '../../../shared/store/files-api';
import { UploadCancelled, uploadStoreFile, type UploadStoreFile } from './upload-store-file';

export type UploadState =
  | { status: 'idle' }
  | { status: 'uploading'; name: string; fraction: number }
  | { status: 'failed'; message: string };

/**
 * One picker's upload: its progress, the server's message when refused, cancel, and the
 * summary of a file by id (the store's, or this picker's latest upload before the store's
 * list has it). Choosing another file while one is uploading replaces it; leaving the page
 * stops it.
 */
export function useStoreUpload(kind: StoreFileKind, upload: UploadStoreFile = uploadStoreFile) {
  const [state, setState] = useState<UploadState>({ status: 'idle' });
  const [latest, setLatest] = useState<UploadedFile>();
  const current = useRef<{ abort(): void } | null>(null);

  useEffect(() => () => current.current?.abort(), []);

  const start = useCallback(
    (file: File, onUploaded: (uploaded: UploadedFile) => void) => {
      current.current?.abort();
      // The answer of an upload replaced or cancelled since is ignored.
      const token = { abort: () => {} };
      const isCurrent = () => current.current === token;
      current.current = token;
      setState({ status: 'uploading', name: file.name, fraction: 0 });
      const running = upload(kind, file, (fraction) => {
        if (isCurrent()) setState({ status: 'uploading', name: file.name, fraction });
      });
      token.abort = () => running.abort();
      running.done.then(
        (uploaded) => {
          if (!isCurrent()) return;
          current.current = null;
          setState({ status: 'idle' });
          setLatest(uploaded);
          onUploaded(uploaded);
        },
        (error: unknown) => {
          if (!isCurrent() || error instanceof UploadCancelled) return;
          current.current = null;
          setState({
            status: 'failed',
            message: error instanceof Error ? error.message : String(error),
          });
        },
      );
    },
    [kind, upload],
  );

  const cancel = useCallback(() => {
    const running = current.current;
    current.current = null;
    running?.abort();
    setState({ status: 'idle' });
  }, []);

  const clearError = useCallback(() => setState({ status: 'idle' }), []);

  const summaryOf = (id: string, files: Record<string, StoreFileSummary>) =>
    files[id] ?? (latest?.id === id ? fileSummary(latest) : undefined);

  return { state, start, cancel, clearError, summaryOf };
}
