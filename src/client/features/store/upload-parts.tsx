import type { ReactNode, Ref } from 'react';
import { adminSecondaryButton } from '../../components/admin-styles';
import { Spinner } from '../../components/spinner';
import type { StoreFileSummary } from '../../../shared/store/files-api';
import type { UploadStoreFile } from './upload-store-file';
import type { UploadState } from './use-store-upload';

/** What every picker of an uploaded file takes besides its value. */
export type PickerProps = {
  label: string;
  /** The uploads the store names, by id (StoreState.files and this visit's uploads). */
  files: Record<string, StoreFileSummary>;
  /** The form's error for this field. */
  error?: string;
  upload?: UploadStoreFile;
};

/**
 * A picker's box, named by its legend. For end-to-end tests: the file input inside is
 * reachable by its label (Playwright's `getByLabel(/Replace image|Choose image…|Upload a new
 * file…/).setInputFiles(…)`), and the group (`getByRole('group', { name: label })`) carries
 * `data-upload` = idle | uploading | failed.
 */
export function PickerFrame({
  label,
  state,
  children,
}: {
  label: string;
  state: UploadState;
  children: ReactNode;
}) {
  return (
    <fieldset
      className="min-w-0 rounded-xl border border-sand-200 bg-sand-50/60 p-4"
      data-upload={state.status}
    >
      <legend className="float-left text-sm font-semibold text-sage-800">{label}</legend>
      {children}
    </fieldset>
  );
}

/**
 * A file input that looks like the admin's secondary button: the input itself stays in the
 * page (visually hidden, still focusable), so its label is the button and a keyboard or a
 * test can reach it by its name; the ring shows when the input has keyboard focus.
 */
export function FileButton({
  id,
  inputRef,
  accept,
  describedBy,
  invalid,
  children,
  onFile,
}: {
  id: string;
  inputRef?: Ref<HTMLInputElement>;
  accept?: string;
  describedBy?: string;
  invalid?: boolean;
  /** The button's text (and any words only a screen reader needs). */
  children: ReactNode;
  onFile(file: File): void;
}) {
  return (
    <label
      htmlFor={id}
      className={`${adminSecondaryButton} cursor-pointer has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-sage-600`}
    >
      {children}
      <input
        ref={inputRef}
        id={id}
        type="file"
        accept={accept}
        className="sr-only"
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Cleared so choosing the same file again (after an error) starts a new upload.
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
    </label>
  );
}

/** The running upload: a progress bar with its percentage, and Cancel. */
export function UploadProgress({
  state,
  onCancel,
}: {
  state: Extract<UploadState, { status: 'uploading' }>;
  onCancel(): void;
}) {
  const percent = Math.round(state.fraction * 100);
  const processing = state.fraction >= 1;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
      <div className="min-w-0 flex-1 basis-48">
        <p className="flex items-center justify-between gap-2 text-sm text-ink-muted">
          <span className="flex min-w-0 items-center gap-1.5">
            <Spinner />
            <span className="truncate">
              {processing ? 'Processing' : 'Uploading'} {state.name}…
            </span>
          </span>
          <span aria-hidden="true" className="shrink-0 font-medium text-ink tabular-nums">
            {percent}%
          </span>
        </p>
        <div
          role="progressbar"
          aria-label={`Uploading ${state.name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={processing ? 'Sent, processing' : `${percent}%`}
          className="mt-1.5 h-2 overflow-hidden rounded-full bg-sand-200"
        >
          <div
            className="h-full rounded-full bg-sage-600 transition-[width] duration-200 motion-reduce:transition-none"
            style={{ width: `${percent}%` }}
          />
        </div>
      </div>
      <button type="button" className={adminSecondaryButton} onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** The field's error (a refused upload's message, or the form's), tied to its control by id. */
export function UploadError({ id, messages }: { id: string; messages: (string | undefined)[] }) {
  const shown = messages.filter((message): message is string => Boolean(message));
  if (shown.length === 0) return null;
  return (
    <div id={id} role="alert" className="text-sm font-medium text-red-700">
      {shown.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}
