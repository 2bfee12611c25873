import { createHash } from 'node:crypto';
import type createSharp from 'sharp';
import type { Metadata, OutputInfo, Sharp } from 'sharp';
import { imageFormats, imageWidths, type ImageFormat } from '../../../shared/store/files-api';
import { HttpError } from '../../http/errors';

/** 50 megapixels (a phone's largest photos): more is a decompression bomb, not a page image. */
export const MAX_IMAGE_PIXELS = 50_000_000;

const NOT_AN_IMAGE =
  'This file is not an image the page can show: upload a JPEG, PNG, WebP, AVIF or GIF.';

export type EncodedVariant = {
  width: number;
  height: number;
  format: ImageFormat;
  /** The first 16 hex digits of the variant's SHA-256: its address. */
  hash: string;
  data: Buffer;
};

export type EncodedImage = { width: number; height: number; variants: EncodedVariant[] };

/**
 * sharp, loaded with the first image: libvips adds about 29 MB to the server's resident memory,
 * and an idle server (or one whose owner never uploads) need not carry it.
 */
let loaded: Promise<typeof createSharp> | undefined;
function sharpLibrary(): Promise<typeof createSharp> {
  loaded ??= import('sharp').then((module) => module.default);
  return loaded;
}

// Decoding fails on a truncated or damaged file instead of showing half an image.
const inputOptions = { failOn: 'truncated', limitInputPixels: MAX_IMAGE_PIXELS } as const;

/** Which decoder the bytes call for; undefined for anything the page must not take. */
async function acceptedMetadata(bytes: Buffer): Promise<Metadata | undefined> {
  const sharp = await sharpLibrary();
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, inputOptions).metadata();
  } catch {
    return undefined;
  }
  switch (metadata.format) {
    case 'jpeg':
    case 'png':
    case 'webp':
    case 'gif':
      return metadata;
    // HEIF holds AVIF (AV1) and Apple's HEIC (HEVC), which the browsers do not show.
    case 'heif':
      return metadata.compression === 'av1' ? metadata : undefined;
    default:
      // SVG (scripts), TIFF, PDF, raw pixels...
      return undefined;
  }
}

/** The widths to make: the page's, never above the original's, and the original's when narrower. */
export function targetWidths(originalWidth: number): number[] {
  const widest = imageWidths[imageWidths.length - 1]!;
  const widths: number[] = imageWidths.filter((width) => width < originalWidth);
  widths.push(Math.min(originalWidth, widest));
  return [...new Set(widths)].sort((a, b) => a - b);
}

function encoder(pipeline: Sharp, format: ImageFormat): Sharp {
  switch (format) {
    case 'avif':
      // The lowest efforts: an upload is re-encoded while the admin waits (2 s for 12 MP).
      return pipeline.avif({ quality: 55, effort: 0 });
    case 'webp':
      return pipeline.webp({ quality: 78, effort: 2 });
    case 'jpeg':
      // The fallback has no transparency: a transparent PNG gets a white background.
      return pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 80, progressive: true });
  }
}

/**
 * Checks an upload by its bytes (never its name or declared type) and re-encodes it, turned
 * upright and without its metadata (camera, location), at each target width as AVIF, WebP and
 * JPEG. Throws a 400 HttpError for anything that is not a whole JPEG, PNG, WebP, AVIF or GIF.
 */
export async function encodeImage(bytes: Buffer): Promise<EncodedImage> {
  if (bytes.length === 0) throw new HttpError(400, 'The image is empty: choose an image file.');
  const sharp = await sharpLibrary();
  const metadata = await acceptedMetadata(bytes);
  if (!metadata) throw new HttpError(400, NOT_AN_IMAGE);
  const { width, height } = metadata.autoOrient ?? metadata;

  // Decoded once, whole (so a truncated file fails here), upright, to the widest size needed.
  let base: { data: Buffer; info: OutputInfo };
  try {
    const widths = targetWidths(width);
    base = await sharp(bytes, inputOptions)
      .autoOrient()
      .resize({ width: widths[widths.length - 1], withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new HttpError(
        413,
        `This image has too many pixels: at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`,
      );
    }
    throw new HttpError(400, `This image is damaged or incomplete: ${NOT_AN_IMAGE}`);
  }
  const raw = {
    raw: { width: base.info.width, height: base.info.height, channels: base.info.channels },
  };
  const jobs = targetWidths(width).flatMap((target) =>
    imageFormats.map(async (format): Promise<EncodedVariant> => {
      const resized = sharp(base.data, raw).resize({ width: target, withoutEnlargement: true });
      const { data, info } = await encoder(resized, format).toBuffer({ resolveWithObject: true });
      const hash = createHash('sha256').update(data).digest('hex').slice(0, 16);
      return { width: info.width, height: info.height, format, hash, data };
    }),
  );
  return { width, height, variants: await Promise.all(jobs) };
}
