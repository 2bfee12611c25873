import { createHash, randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { TEST_WEBHOOK_SECRET } from '../../tests/support/stripe-events';
import { startAdminBenchServer } from '../lib/admin-bench-server';
import { postJson } from '../lib/sign-in';
import { sizes } from '../lib/sizes';
import { median, round } from '../lib/stats';
import {
  editDraft,
  publishDraft,
  publishUntilServed,
  uploadStoreFile,
  type StoreAdmin,
} from '../lib/store-admin';
import { download, downloadHalf } from './orders';

const IMAGE = { width: 4000, height: 3000 };
/**
 * Publishes timed, image uploads timed, the product file's size, and the download rounds of
 * `clients` concurrent clients, each on a link of its own, one download each per round: the
 * first round is the server's first at that concurrency (its allocator grows to the working
 * set), the others show whether that memory is reused.
 */
const SIZES = {
  full: { publishRounds: 5, imageRounds: 3, fileBytes: 50_000_000, clients: 8, downloadRounds: 3 },
  quick: { publishRounds: 1, imageRounds: 1, fileBytes: 5_000_000, clients: 2, downloadRounds: 1 },
};
const MB = 1_000_000;

type Timed = { median_ms: number; each_ms: number[] };

export type StoreResults = {
  /** From POST publish until GET / serves the new headline and price. */
  publish: Timed;
  /** An upload of a 4000×3000 JPEG until its 201 (checked, re-encoded, stored). */
  image: Timed & { width: number; height: number; mb: number };
  /** The published product file streamed through download links while the server's RSS is sampled. */
  downloads: {
    file_mb: number;
    clients: number;
    /** Of all the rounds together. */
    mb_per_s: number;
    /** The server's RSS before the first round. */
    rss_before_mb: number;
    /** Each round's peak RSS over the RSS just before it, in order. */
    rss_growth_mb: number[];
  };
};

const timed = (each: number[]): Timed => ({
  median_ms: round(median(each)),
  each_ms: each.map((ms) => round(ms)),
});

/**
 * A photo-like JPEG: smooth colour fields (a small random picture enlarged) with sensor-like
 * noise, about 4 MB at quality 90, as a phone's 12 MP photo is; not a flat image that encodes
 * to nothing.
 */
export async function photoLikeJpeg(width: number, height: number): Promise<Buffer> {
  const pixels = await sharp(randomBytes(40 * 30 * 3), {
    raw: { width: 40, height: 30, channels: 3 },
  })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  const noise = randomBytes(pixels.length);
  for (let i = 0; i < pixels.length; i += 1) {
    pixels[i] = Math.max(0, Math.min(255, pixels[i]! + (noise[i]! % 41) - 20));
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

let edition = 0;

/** Saves a draft with a new headline and price and publishes it: ms until GET / shows it. */
export async function publishChange(admin: StoreAdmin): Promise<number> {
  edition += 1;
  const title = `Soul Reset Bundle: your calm back in 30 days, edition ${edition}`;
  await editDraft(admin, (content) => ({
    ...content,
    product: { ...content.product, priceCents: 1900 + edition },
    hero: { ...content.hero, title },
  }));
  return publishUntilServed(admin, title);
}

/**
 * The store content on the real server (bench-server.ts with verified purchases on, so download
 * links are served), the owner signed in:
 * 1. publishRounds publishes of a changed headline and price, each timed from the POST until
 *    GET / serves the new headline;
 * 2. a random product file (50 MB) uploaded and published, then downloaded through download
 *    links by `clients` concurrent clients in `downloadRounds` rounds, every body's length checked
 *    (one body's SHA-256), while the server's RSS is sampled every 25 ms;
 * 3. imageRounds uploads of a 4000×3000 JPEG, each timed until the 201.
 */
export async function benchStore(
  root: string,
  dataDir: string,
  postgresAdminUrl?: string,
): Promise<StoreResults> {
  const { server, cookie, close } = await startAdminBenchServer(root, dataDir, postgresAdminUrl, {
    STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    DOWNLOAD_LIMIT: '1000',
  });
  const { publishRounds, imageRounds, fileBytes, clients, downloadRounds } = sizes(SIZES);
  try {
    const admin = { url: server.url, cookie };
    // One unmeasured publish first (the renderer's first run).
    await publishChange(admin);
    const publishes: number[] = [];
    for (let i = 0; i < publishRounds; i += 1) publishes.push(await publishChange(admin));

    // The downloads before the images: sharp's buffers would leave RSS high to grow into.
    const data = randomBytes(fileBytes);
    const product = await uploadStoreFile(admin, 'product', { filename: 'bundle.zip', data });
    await editDraft(admin, (content) => ({
      ...content,
      product: { ...content.product, file: product.id },
    }));
    await publishDraft(admin);
    const { tokens } = (await (
      await postJson(server.url, '/__bench/download-links', { count: clients })
    ).json()) as { tokens: string[] };
    const linkUrl = (client: number) => `${server.url}/download/${tokens[client]}`;
    const checked = await download(linkUrl(0), true);
    if (checked.sha256 !== createHash('sha256').update(data).digest('hex')) {
      throw new Error('A download link sent other bytes than the uploaded product file');
    }
    const rounds = [];
    for (let i = 0; i < downloadRounds; i += 1) {
      rounds.push(await downloadHalf(server, clients, 1, linkUrl, fileBytes));
    }
    const seconds = rounds.reduce((sum, half) => sum + half.seconds, 0);

    const jpeg = await photoLikeJpeg(IMAGE.width, IMAGE.height);
    const upload = () => uploadStoreFile(admin, 'image', { filename: 'photo.jpg', data: jpeg });
    // One unmeasured upload first (sharp's first run).
    await upload();
    const images: number[] = [];
    for (let i = 0; i < imageRounds; i += 1) {
      const started = performance.now();
      const answer = await upload();
      images.push(performance.now() - started);
      if (answer.width !== IMAGE.width || !answer.variants?.length) {
        throw new Error(`The image upload answered ${JSON.stringify(answer)}`);
      }
    }

    return {
      publish: timed(publishes),
      image: { ...timed(images), ...IMAGE, mb: round(jpeg.length / MB, 1) },
      downloads: {
        file_mb: fileBytes / MB,
        clients,
        mb_per_s: round((clients * downloadRounds * fileBytes) / MB / seconds),
        rss_before_mb: round(rounds[0]!.rssBeforeMb),
        rss_growth_mb: rounds.map((half) => round(half.rssGrowthMb, 1)),
      },
    };
  } finally {
    await close();
  }
}
