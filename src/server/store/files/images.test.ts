import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeImage } from './images';

/** A 12-megapixel photo-like JPEG: gradients with fine texture, about 3 MB. */
async function cameraJpeg(): Promise<Buffer> {
  const width = 4000;
  const height = 3000;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const texture = (Math.sin(x * 0.37 + y * 0.11) + Math.sin(x * y * 0.000013)) * 20;
      pixels[i] = (x / 16 + texture) & 255;
      pixels[i + 1] = (y / 12 + texture) & 255;
      pixels[i + 2] = ((x + y) / 28 + texture * 2) & 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

describe('encodeImage', () => {
  it('turns a 4000×3000 JPEG into its nine variants (the time is printed, not checked)', async () => {
    const jpeg = await cameraJpeg();
    const started = performance.now();
    const image = await encodeImage(jpeg);
    const ms = performance.now() - started;
    console.log(
      `4000×3000 JPEG (${(jpeg.length / 1024 / 1024).toFixed(1)} MB) → ${image.variants.length} variants in ${ms.toFixed(0)} ms`,
    );
    expect(image).toMatchObject({ width: 4000, height: 3000 });
    expect(
      image.variants.map((variant) => `${variant.format} ${variant.width}×${variant.height}`),
    ).toEqual([
      'avif 480×360',
      'webp 480×360',
      'jpeg 480×360',
      'avif 960×720',
      'webp 960×720',
      'jpeg 960×720',
      'avif 1440×1080',
      'webp 1440×1080',
      'jpeg 1440×1080',
    ]);
  }, 30_000);
});
