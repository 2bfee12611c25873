import { FileText } from 'lucide-react';
import { useId, useRef, type ReactNode } from 'react';
import type { UploadedFile } from '../../../shared/store/files-api';
import { formatFileSize } from './format-file-size';
import {
  FileButton,
  PickerFrame,
  UploadError,
  UploadProgress,
  type PickerProps,
} from './upload-parts';
import { uploadStoreFile } from './upload-store-file';
import { useStoreUpload } from './use-store-upload';

export type FilePickerProps = PickerProps & {
  kind: 'product' | 'guide';
  /** The upload's id the content names; null: the file the server's settings name. */
  value: string | null;
  /** A new file was uploaded: its id, and the server's answer (to add to `files`). */
  onChange(id: string | null, uploaded?: UploadedFile): void;
  hint?: ReactNode;
};

/**
 * The product's or the guide's file: which one the content names (its name and size), and
 * "Upload a new file…" with its progress and Cancel. A refused upload leaves the file as it
 * was; visitors get a new one only once the store is published.
 */
export function FilePicker({
  label,
  kind,
  value,
  files,
  onChange,
  hint,
  error,
  upload = uploadStoreFile,
}: FilePickerProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const { state, start, cancel, summaryOf } = useStoreUpload(kind, upload);
  const uploadError = state.status === 'failed' ? state.message : undefined;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hintId, (uploadError || error) && errorId].filter(Boolean).join(' ');

  const summary = value === null ? undefined : summaryOf(value, files);
  const current =
    value === null
      ? `The file set on the server (${kind === 'product' ? 'BUNDLE_FILE' : 'GUIDE_URL'})`
      : summary
        ? `${summary.name} · ${formatFileSize(summary.size)}`
        : 'An uploaded file no longer stored: upload it again.';

  return (
    <PickerFrame label={label} state={state}>
      <div className="clear-both grid gap-3 pt-3">
        <p className="flex min-w-0 items-start gap-2 text-sm text-ink">
          <FileText aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-ink-muted" />
          <span className="min-w-0 break-words">{current}</span>
        </p>
        {state.status === 'uploading' && (
          <UploadProgress
            state={state}
            onCancel={() => {
              cancel();
              input.current?.focus();
            }}
          />
        )}
        <div>
          <FileButton
            id={`${id}-file`}
            inputRef={input}
            describedBy={describedBy}
            invalid={Boolean(error)}
            onFile={(file) => start(file, (uploaded) => onChange(uploaded.id, uploaded))}
          >
            Upload a new file…<span className="sr-only"> ({label})</span>
          </FileButton>
        </div>
        <div id={hintId} className="grid gap-1 text-sm text-ink-muted">
          {hint && <p>{hint}</p>}
          <p>Visitors get a new file only after you publish.</p>
        </div>
        <UploadError id={errorId} messages={[uploadError, error]} />
      </div>
    </PickerFrame>
  );
}
