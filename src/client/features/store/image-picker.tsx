import { ImageIcon } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';
import { adminFormInput, adminLabel, adminSecondaryButton } from '../../components/admin-styles';
import type { ImageVariant, StoreFileSummary, UploadedFile } from '../../../shared/store/files-api';
import type { StoreImage } from '../../../shared/store/store-content';
import { builtInImages } from '../../images/built-in-images';
import {
  FileButton,
  PickerFrame,
  UploadError,
  UploadProgress,
  type PickerProps,
} from './upload-parts';
import { uploadStoreFile } from './upload-store-file';
import { useStoreUpload } from './use-store-upload';

/** What the server takes as an image (it checks the bytes too). */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/avif,image/gif';

const BUILTIN = 'builtin:';

/** What the thumbnail shows: an address and the image's proportions, if there is one. */
function thumbnailOf(
  image: StoreImage,
  summary: StoreFileSummary | undefined,
): { src: string; width: number; height: number } | undefined {
  if (image.file.startsWith(BUILTIN)) return builtInImages[image.file.slice(BUILTIN.length)];
  const media = summary?.image;
  if (!media) return undefined;
  // The narrowest JPEG: every browser shows it, and it is the lightest.
  const smallest = media.variants
    .filter((variant: ImageVariant) => variant.format === 'jpeg')
    .sort((a, b) => a.width - b.width)[0];
  return smallest && { src: smallest.url, width: media.width, height: media.height };
}

/** Where the current image comes from, in words. */
function sourceOf(image: StoreImage, summary: StoreFileSummary | undefined, found: boolean) {
  if (image.file.startsWith(BUILTIN)) return 'An image the site was built with';
  if (!found) return 'This image is no longer stored: choose another one.';
  return summary?.name;
}

export type ImagePickerProps = PickerProps & {
  value: StoreImage | null;
  /** A new value: an upload's (with the server's answer, to add to `files`), new alt text, or null. */
  onChange(value: StoreImage | null, uploaded?: UploadedFile): void;
  /** May be removed (the field then holds null). */
  optional?: boolean;
};

/**
 * An image of the store content: a thumbnail of the current one, "Choose image…" or
 * "Replace image" (an upload with its progress and Cancel; the old image stays until the new
 * one is stored), the description screen readers read, and "Remove image" when optional.
 */
export function ImagePicker({
  label,
  value,
  files,
  onChange,
  optional = false,
  error,
  upload = uploadStoreFile,
}: ImagePickerProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const { state, start, cancel, clearError, summaryOf } = useStoreUpload('image', upload);
  // The alt text typed while the upload ran is kept with the new image.
  const latest = useRef(value);
  useEffect(() => {
    latest.current = value;
  }, [value]);
  const summary = value ? summaryOf(value.file, files) : undefined;
  const thumbnail = value ? thumbnailOf(value, summary) : undefined;
  const uploadError = state.status === 'failed' ? state.message : undefined;
  const errorId = `${id}-error`;
  const altHintId = `${id}-alt-hint`;

  return (
    <PickerFrame label={label} state={state}>
      <div className="clear-both flex flex-wrap items-start gap-4 pt-3">
        <div className="flex size-24 shrink-0 items-center justify-center overflow-hidden rounded-lg border border-sand-200 bg-white">
          {thumbnail ? (
            <img
              src={thumbnail.src}
              width={thumbnail.width}
              height={thumbnail.height}
              alt=""
              className="size-full object-contain"
            />
          ) : (
            <ImageIcon aria-hidden="true" className="size-8 text-sand-300" />
          )}
        </div>
        <div className="grid min-w-0 flex-1 basis-52 gap-3">
          <p className="text-sm break-words text-ink-muted">
            {value ? sourceOf(value, summary, Boolean(thumbnail)) : 'No image'}
          </p>
          {state.status === 'uploading' ? (
            <UploadProgress
              state={state}
              onCancel={() => {
                cancel();
                input.current?.focus();
              }}
            />
          ) : null}
          <div className="flex flex-wrap gap-2">
            <FileButton
              id={`${id}-file`}
              inputRef={input}
              accept={IMAGE_ACCEPT}
              describedBy={uploadError || error ? errorId : undefined}
              invalid={Boolean(error)}
              onFile={(file) =>
                start(file, (uploaded) =>
                  onChange({ file: uploaded.id, alt: latest.current?.alt ?? '' }, uploaded),
                )
              }
            >
              {value ? 'Replace image' : 'Choose image…'}
              <span className="sr-only"> ({label})</span>
            </FileButton>
            {optional && value && (
              <button
                type="button"
                className={adminSecondaryButton}
                onClick={() => {
                  cancel();
                  clearError();
                  onChange(null);
                  input.current?.focus();
                }}
              >
                Remove image<span className="sr-only"> ({label})</span>
              </button>
            )}
          </div>
          <UploadError id={errorId} messages={[uploadError, error]} />
        </div>
      </div>
      {value && (
        <div className="mt-4">
          <label htmlFor={`${id}-alt`} className={adminLabel}>
            Description for screen readers
          </label>
          <input
            id={`${id}-alt`}
            type="text"
            value={value.alt}
            aria-describedby={altHintId}
            className={adminFormInput}
            onChange={(event) => onChange({ ...value, alt: event.target.value })}
          />
          <p id={altHintId} className="mt-1 text-sm text-ink-muted">
            Leave empty if the image is decorative.
          </p>
        </div>
      )}
    </PickerFrame>
  );
}
