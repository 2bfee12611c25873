import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { HttpError } from '../../http/errors';
import {
  imageTypes,
  mediaPath,
  type ImageFormat,
  type ImageVariant,
  type MediaImage,
  type StoreFileKind,
  type StoreFileSummary,
} from '../../../shared/store/files-api';
import type { StoreContent } from '../../../shared/store/store-content';

/** An uploaded image the content shows, at its field path ("parts.2.image"). */
export type ImageRef = { path: string; file: string };

const isImage = (value: unknown): value is { file: string; alt: string } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { file?: unknown }).file === 'string' &&
  typeof (value as { alt?: unknown }).alt === 'string';

/** Every uploaded image of the content, wherever it sits (built-in ones are not uploads). */
export function uploadedImages(content: StoreContent): ImageRef[] {
  const refs: ImageRef[] = [];
  const walk = (value: unknown, path: string[]) => {
    if (isImage(value)) {
      if (!value.file.startsWith('builtin:')) refs.push({ path: path.join('.'), file: value.file });
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) walk(child, [...path, key]);
  };
  walk(content, []);
  return refs;
}

export function imageVariant(row: {
  hash: string;
  width: number;
  height: number;
  format: ImageFormat;
}): ImageVariant {
  return {
    url: mediaPath(row.hash, row.width, row.format),
    width: row.width,
    height: row.height,
    format: row.format,
    type: imageTypes[row.format],
  };
}

/** The uploaded images the content shows, by id, with their variants narrowest first. */
export function contentMedia(
  db: Kysely<Database>,
  content: StoreContent,
): Promise<Record<string, MediaImage>> {
  return mediaOf(db, [...new Set(uploadedImages(content).map((ref) => ref.file))]);
}

async function mediaOf(db: Kysely<Database>, ids: string[]): Promise<Record<string, MediaImage>> {
  if (ids.length === 0) return {};
  const rows = await db
    .selectFrom('store_image_variants as v')
    .innerJoin('store_files as f', 'f.id', 'v.file_id')
    .select([
      'v.file_id',
      'v.hash',
      'v.width',
      'v.height',
      'v.format',
      'f.width as file_width',
      'f.height as file_height',
    ])
    .where('v.file_id', 'in', ids)
    .where('f.kind', '=', 'image')
    .orderBy('v.file_id')
    .orderBy('v.width')
    .execute();
  const media: Record<string, MediaImage> = {};
  for (const row of rows) {
    const image = (media[row.file_id] ??= {
      width: row.file_width ?? row.width,
      height: row.file_height ?? row.height,
      variants: [],
    });
    image.variants.push(imageVariant(row));
  }
  return media;
}

/** Every uploaded file the content names: its field's path and the kind that field takes. */
function fileRefs(content: StoreContent): (ImageRef & { kind: StoreFileKind })[] {
  const named = (path: string, file: string | null, kind: StoreFileKind) =>
    file ? [{ path, file, kind }] : [];
  return [
    ...uploadedImages(content).map((ref) => ({
      path: `${ref.path}.file`,
      file: ref.file,
      kind: 'image' as const,
    })),
    ...named('product.file', content.product.file, 'product'),
    ...named('guide.file', content.guide.file, 'guide'),
  ];
}

/**
 * A 400 naming each field whose file is not an upload of the kind it takes (or is gone): a
 * draft that names a missing product file would publish a download that fails.
 */
export async function checkUploadedFiles(
  db: Kysely<Database>,
  content: StoreContent,
): Promise<void> {
  const refs = fileRefs(content);
  if (refs.length === 0) return;
  const found = await db
    .selectFrom('store_files')
    .select(['id', 'kind'])
    .where('id', 'in', [...new Set(refs.map((ref) => ref.file))])
    .execute();
  const kinds = new Map(found.map((row) => [row.id, row.kind]));
  const fields: Record<string, string> = {};
  for (const ref of refs) {
    if (kinds.get(ref.file) !== ref.kind) {
      fields[ref.path] = 'This file is not uploaded (any more): upload it again.';
    }
  }
  if (Object.keys(fields).length > 0) {
    throw new HttpError(400, 'Some fields need your attention.', fields);
  }
}

/** Every uploaded file the contents name (product, guide, images), as the Store page lists them. */
export async function contentFiles(
  db: Kysely<Database>,
  contents: StoreContent[],
): Promise<Record<string, StoreFileSummary>> {
  const ids = new Set(contents.flatMap((content) => fileRefs(content).map((ref) => ref.file)));
  if (ids.size === 0) return {};
  const rows = await db
    .selectFrom('store_files')
    .select(['id', 'kind', 'name', 'size'])
    .where('id', 'in', [...ids])
    .execute();
  const images = await mediaOf(
    db,
    rows.filter((row) => row.kind === 'image').map((row) => row.id),
  );
  const files: Record<string, StoreFileSummary> = {};
  for (const { id, kind, name, size } of rows) {
    const image = images[id];
    files[id] = image
      ? { kind, name, size: Number(size), image }
      : { kind, name, size: Number(size) };
  }
  return files;
}
