import type { ImgHTMLAttributes } from 'react';
import type { StoreImage } from '../../shared/store/store-content';
import { imageTypes } from '../../shared/store/files-api';
import { builtInImages } from '../images/built-in-images';
import { usePublicConfig } from '../routing/public-config';

type ContentImageProps = {
  image: StoreImage;
  /** The width the layout gives the image, as `<img sizes>` takes it. */
  sizes: string;
} & Pick<ImgHTMLAttributes<HTMLImageElement>, 'className' | 'loading' | 'fetchPriority'>;

/**
 * An image of the store content: a built-in one, or an uploaded one as a `<picture>` of its
 * AVIF and WebP variants with the JPEG as fallback. Nothing for an image that is not there
 * (an upload deleted since), rather than a broken one.
 */
export function ContentImage({ image, sizes, loading, ...rest }: ContentImageProps) {
  const { media } = usePublicConfig();
  const common = {
    alt: image.alt,
    loading,
    decoding: loading === 'lazy' ? ('async' as const) : undefined,
    ...rest,
  };
  if (image.file.startsWith('builtin:')) {
    const builtIn = builtInImages[image.file.slice('builtin:'.length)];
    if (!builtIn) return null;
    return <img src={builtIn.src} width={builtIn.width} height={builtIn.height} {...common} />;
  }
  const uploaded = media[image.file];
  if (!uploaded) return null;
  const srcset = (format: string) =>
    uploaded.variants
      .filter((variant) => variant.format === format)
      .map((variant) => `${variant.url} ${variant.width}w`)
      .join(', ');
  const jpegs = uploaded.variants.filter((variant) => variant.format === 'jpeg');
  return (
    <picture>
      <source type={imageTypes.avif} srcSet={srcset('avif')} sizes={sizes} />
      <source type={imageTypes.webp} srcSet={srcset('webp')} sizes={sizes} />
      <img
        src={jpegs[jpegs.length - 1]?.url}
        srcSet={srcset('jpeg')}
        sizes={sizes}
        width={uploaded.width}
        height={uploaded.height}
        {...common}
      />
    </picture>
  );
}
