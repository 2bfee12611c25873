/**
 * The owner's uploads (DESIGN.md "The offer, edited by the owner"):
 *
 * - POST STORE_FILES_PATH (admin; multipart: field `kind`, then `file`) → 201 UploadedFile;
 *   400 for an empty file or an image that is not a JPEG, PNG, WebP, AVIF or GIF (checked by
 *   its bytes), 413 over UPLOAD_IMAGE_MAX_MB / UPLOAD_FILE_MAX_MB. A refused upload stores
 *   nothing.
 * - GET mediaPath(…): an image variant, cached for a year (the address changes with the bytes).
 * - GET guideFilePath(id): a file uploaded as kind `guide`, as an attachment. Product files
 *   leave only through download links.
 */
export const STORE_FILES_PATH = '/api/admin/store/files';

export const storeFileKinds = ['image', 'product', 'guide'] as const;
export type StoreFileKind = (typeof storeFileKinds)[number];

/** The widths an uploaded image is re-encoded to (never wider than the original). */
export const imageWidths = [480, 960, 1440] as const;

/** Best first: a `<picture>` lists AVIF and WebP sources and falls back to the JPEG. */
export const imageFormats = ['avif', 'webp', 'jpeg'] as const;
export type ImageFormat = (typeof imageFormats)[number];

export const imageTypes: Record<ImageFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
};

const extensions: Record<ImageFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' };

export function mediaPath(hash: string, width: number, format: ImageFormat): string {
  return `/media/${hash}-${width}.${extensions[format]}`;
}

/** The parts of a media file name, or undefined when it is not one. */
export function parseMediaName(
  name: string,
): { hash: string; width: number; format: ImageFormat } | undefined {
  const match = /^([0-9a-f]{16})-(\d{1,5})\.(avif|webp|jpg)$/.exec(name);
  if (!match) return undefined;
  const format = imageFormats.find((candidate) => extensions[candidate] === match[3])!;
  return { hash: match[1]!, width: Number(match[2]), format };
}

export function guideFilePath(id: string): string {
  return `/files/${id}`;
}

/** One re-encoded size of an image. */
export type ImageVariant = {
  url: string;
  width: number;
  height: number;
  format: ImageFormat;
  /** The MIME type, for a `<source type>`. */
  type: string;
};

/** An uploaded image as the page shows it: its size and every variant (PublicConfig.media). */
export type MediaImage = { width: number; height: number; variants: ImageVariant[] };

export type UploadedFile = {
  /** What the content's `product.file`, `guide.file` or image field takes. */
  id: string;
  /**
   * An image's widest JPEG, a guide's download address; null for a product file, which is
   * reachable only through download links.
   */
  url: string | null;
  kind: StoreFileKind;
  name: string;
  /** Bytes as uploaded. */
  size: number;
  sha256: string;
  /** Images only: every width in every format, narrowest first. */
  variants?: ImageVariant[];
  /** Images only: the size after auto-orientation. */
  width?: number;
  height?: number;
};

/** A file the store content names, as the Store page shows it (StoreState.files). */
export type StoreFileSummary = {
  kind: StoreFileKind;
  name: string;
  /** Bytes as uploaded. */
  size: number;
  /** Images only: what the page shows. */
  image?: MediaImage;
};

/** The summary of an upload's answer, to show it before the next load of the store. */
export function fileSummary(file: UploadedFile): StoreFileSummary {
  const { kind, name, size, width, height, variants } = file;
  return variants && width && height
    ? { kind, name, size, image: { width, height, variants } }
    : { kind, name, size };
}
