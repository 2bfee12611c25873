import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../../tests/support/eventually';
import { multipartBody, uploadForm } from '../../../../tests/support/multipart';
import { signIn } from '../../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../../tests/support/test-app';
import { testConfig } from '../../../../tests/support/test-config';
import { describeEachDatabase } from '../../../../tests/support/test-database';
import { STORE_FILES_PATH, imageWidths, type UploadedFile } from '../../../shared/store/files-api';
import { targetWidths } from './images';

const ADMIN = 'owner@example.com';
const VISITOR = 'visitor@example.com';
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A photo-like picture: gradients and a little texture. */
async function picture(
  width: number,
  height: number,
  format: 'jpeg' | 'png' | 'webp' | 'avif' | 'gif',
  options: { alpha?: boolean; orientation?: number } = {},
): Promise<Buffer> {
  const channels = options.alpha ? 4 : 3;
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * channels;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = ((x ^ y) & 31) * 8;
      if (options.alpha) pixels[i + 3] = x < width / 2 ? 255 : 64;
    }
  }
  let image = sharp(pixels, { raw: { width, height, channels } });
  if (options.orientation) {
    image = image.withMetadata({ orientation: options.orientation });
  }
  return image.toFormat(format).toBuffer();
}

describeEachDatabase('owner uploads', (use) => {
  let sink: SmtpSink;
  let app: FastifyInstance;
  let adminCookie: string;
  let visitorCookie: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    app = await buildTestApp(use(), {
      config: await testConfig({
        SMTP_URL: sink.url,
        ADMIN_EMAILS: ADMIN,
        UPLOAD_IMAGE_MAX_MB: '1',
        UPLOAD_FILE_MAX_MB: '1',
      }),
    });
    adminCookie = await signIn(app, sink, ADMIN);
    visitorCookie = await signIn(app, sink, VISITOR);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });

  function upload(
    kind: string,
    file: { filename: string; contentType?: string; data: Buffer },
    headers: Record<string, string> = { cookie: adminCookie, origin: app.config.publicUrl },
  ) {
    const form = uploadForm(kind, file);
    return app.inject({
      method: 'POST',
      url: STORE_FILES_PATH,
      payload: form.payload,
      headers: { ...headers, 'content-type': form.contentType },
    });
  }

  /** Rows of every table an upload writes, the activity log included. */
  async function counts() {
    const { rows } = await sql<{ files: number; chunks: number; variants: number; audit: number }>`
      select (select count(*)::int from store_files) as files,
        (select count(*)::int from store_file_chunks) as chunks,
        (select count(*)::int from store_image_variants) as variants,
        (select count(*)::int from admin_audit_log) as audit`.execute(use().db);
    return rows[0]!;
  }

  describe('who may upload', () => {
    it('answers 401 without a session, 403 to a visitor and 403 from another site', async () => {
      const before = await counts();
      const file = { filename: 'guide.pdf', data: Buffer.from('%PDF guide') };
      expect((await upload('guide', file, { origin: app.config.publicUrl })).statusCode).toBe(401);
      expect(
        (await upload('guide', file, { cookie: visitorCookie, origin: app.config.publicUrl }))
          .statusCode,
      ).toBe(403);
      const elsewhere = await upload('guide', file, {
        cookie: adminCookie,
        origin: 'https://evil.example',
      });
      expect(elsewhere.statusCode).toBe(403);
      expect((await upload('guide', file, { cookie: adminCookie })).statusCode).toBe(403);
      expect(await counts()).toEqual(before);
    });
  });

  describe('images', () => {
    it('re-encodes a JPEG to every width up to 1440 as AVIF, WebP and JPEG, served immutable', async () => {
      const original = await picture(2000, 1500, 'jpeg');
      const response = await upload('image', {
        filename: 'hero.jpg',
        contentType: 'image/jpeg',
        data: original,
      });
      expect(response.statusCode).toBe(201);
      const answer = response.json() as UploadedFile;
      expect(answer).toMatchObject({
        kind: 'image',
        name: 'hero.jpg',
        size: original.length,
        sha256: sha256(original),
        width: 2000,
        height: 1500,
      });
      expect(answer.id).toMatch(/^[a-z0-9-]{1,64}$/);
      expect(answer.variants!.map((v) => `${v.format}-${v.width}x${v.height}`).sort()).toEqual(
        [
          'avif-1440x1080',
          'avif-480x360',
          'avif-960x720',
          'jpeg-1440x1080',
          'jpeg-480x360',
          'jpeg-960x720',
          'webp-1440x1080',
          'webp-480x360',
          'webp-960x720',
        ].sort(),
      );
      // The answer's url is the widest fallback.
      expect(answer.url).toBe(
        answer.variants!.find((v) => v.format === 'jpeg' && v.width === 1440)!.url,
      );
      for (const variant of answer.variants!) {
        expect(variant.url).toMatch(/^\/media\/[0-9a-f]{16}-\d+\.(avif|webp|jpg)$/);
        const served = await app.inject(variant.url);
        expect(served.statusCode).toBe(200);
        expect(served.headers['content-type']).toBe(variant.type);
        expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        const meta = await sharp(served.rawPayload).metadata();
        expect(meta.width).toBe(variant.width);
        expect(meta.height).toBe(variant.height);
        expect(meta.format).toBe(variant.format === 'avif' ? 'heif' : variant.format);
        // The address is the bytes' own hash.
        expect(variant.url).toContain(`/media/${sha256(served.rawPayload).slice(0, 16)}-`);
      }
      const { rows } = await sql<{ admin_email: string; table_name: string; after: unknown }>`
        select admin_email, table_name, after from admin_audit_log
        where action = 'upload' order by id desc limit 1`.execute(use().db);
      const entry = rows[0]!;
      expect(entry).toMatchObject({ admin_email: ADMIN, table_name: 'store_files' });
      expect(entry.after).toEqual([
        {
          id: answer.id,
          kind: 'image',
          name: 'hero.jpg',
          size: original.length,
          sha256: answer.sha256,
        },
      ]);
    });

    it('never upscales: a narrow PNG with transparency keeps its width, turned upright images their turn', async () => {
      const png = await upload('image', {
        filename: 'badge.png',
        contentType: 'image/png',
        data: await picture(640, 480, 'png', { alpha: true }),
      });
      expect(png.statusCode).toBe(201);
      const widths = (png.json() as UploadedFile).variants!.map((v) => v.width);
      expect([...new Set(widths)].sort((a, b) => a - b)).toEqual([480, 640]);

      // Stored sideways with EXIF orientation 6 (90° clockwise): served upright, without EXIF.
      const turned = await upload('image', {
        filename: 'portrait.jpg',
        data: await picture(600, 400, 'jpeg', { orientation: 6 }),
      });
      expect(turned.statusCode).toBe(201);
      const answer = turned.json() as UploadedFile;
      expect(answer).toMatchObject({ width: 400, height: 600 });
      const widest = await app.inject(answer.url!);
      const meta = await sharp(widest.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([400, 600]);
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
    });

    it('takes WebP, AVIF and GIF by their bytes, whatever their name', async () => {
      for (const format of ['webp', 'avif', 'gif'] as const) {
        const response = await upload('image', {
          filename: 'picture.bin',
          contentType: 'application/octet-stream',
          data: await picture(500, 300, format),
        });
        expect(response.statusCode, format).toBe(201);
      }
      // Three uploads of nine encoded variants each (AVIF among them) take seconds on two cores;
      // a timeout here would leave an upload running into the next test.
    }, 30_000);

    it('refuses what is not a whole JPEG, PNG, WebP, AVIF or GIF with a 400, storing nothing', async () => {
      const jpeg = await picture(1200, 900, 'jpeg');
      const bad = [
        {
          filename: 'logo.svg',
          contentType: 'image/svg+xml',
          data: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
          ),
        },
        {
          filename: 'page.jpg',
          contentType: 'image/jpeg',
          data: Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'),
        },
        { filename: 'text.png', contentType: 'image/png', data: Buffer.from('just some text\n') },
        {
          filename: 'fake.png',
          contentType: 'image/png',
          data: Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.from('text')]),
        },
        { filename: 'cut.jpg', contentType: 'image/jpeg', data: jpeg.subarray(0, jpeg.length / 2) },
        {
          filename: 'tiff.tif',
          contentType: 'image/tiff',
          data: await sharp(jpeg).tiff().toBuffer(),
        },
      ];
      const before = await counts();
      for (const file of bad) {
        const response = await upload('image', file);
        expect(response.statusCode, file.filename).toBe(400);
        expect(response.json().message, file.filename).toMatch(/JPEG, PNG, WebP, AVIF or GIF/);
      }
      const empty = await upload('image', { filename: 'empty.jpg', data: Buffer.alloc(0) });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe('The image is empty: choose an image file.');
      expect(await counts()).toEqual(before);
    });

    it('refuses an image over UPLOAD_IMAGE_MAX_MB with a 413 before decoding it', async () => {
      const before = await counts();
      const response = await upload('image', {
        filename: 'huge.jpg',
        contentType: 'image/jpeg',
        data: Buffer.alloc(1024 * 1024 + 1, 1),
      });
      expect(response.statusCode).toBe(413);
      expect(response.json().message).toBe('The image is too large: the limit is 1 MB.');
      expect(await counts()).toEqual(before);
    });

    it('answers 404 for an image address that does not exist', async () => {
      expect((await app.inject('/media/0123456789abcdef-480.jpg')).statusCode).toBe(404);
      expect((await app.inject('/media/not-a-name.jpg')).statusCode).toBe(404);
    });
  });

  describe('product and guide files', () => {
    it('stores a file in 256 KB chunks with its size and SHA-256; a guide downloads as an attachment', async () => {
      const data = Buffer.alloc(700 * 1024);
      for (let i = 0; i < data.length; i++) data[i] = (i * 7 + (i >> 10)) & 255;
      const response = await upload('guide', {
        filename: 'C:\\Users\\me\\Guide «calm» v2.pdf',
        contentType: 'text/html',
        data,
      });
      expect(response.statusCode).toBe(201);
      const answer = response.json() as UploadedFile;
      expect(answer).toMatchObject({
        kind: 'guide',
        name: 'Guide «calm» v2.pdf',
        size: data.length,
        sha256: sha256(data),
        url: `/files/${answer.id}`,
      });
      const chunks = await use()
        .db.selectFrom('store_file_chunks')
        .select(['seq', sql<number>`length(data)`.as('bytes')])
        .where('file_id', '=', answer.id)
        .orderBy('seq')
        .execute();
      expect(chunks).toEqual([
        { seq: 0, bytes: 256 * 1024 },
        { seq: 1, bytes: 256 * 1024 },
        { seq: 2, bytes: 188 * 1024 },
      ]);
      const served = await app.inject(answer.url!);
      expect(served.statusCode).toBe(200);
      expect(sha256(served.rawPayload)).toBe(sha256(data));
      // By its name's extension, never the browser's claim.
      expect(served.headers['content-type']).toBe('application/pdf');
      expect(served.headers['content-length']).toBe(String(data.length));
      expect(served.headers['content-disposition']).toBe(
        `attachment; filename="Guide _calm_ v2.pdf"; filename*=UTF-8''${encodeURIComponent('Guide «calm» v2.pdf')}`,
      );
      expect(served.headers['x-content-type-options']).toBe('nosniff');
    });

    it('never serves a product file or an image at /files/:id', async () => {
      const product = await upload('product', {
        filename: 'bundle.zip',
        data: Buffer.from('the bundle'),
      });
      expect(product.statusCode).toBe(201);
      expect(product.json()).toMatchObject({ kind: 'product', url: null });
      expect((await app.inject(`/files/${product.json().id}`)).statusCode).toBe(404);
      const image = await upload('image', {
        filename: 'a.png',
        data: await picture(100, 100, 'png'),
      });
      expect((await app.inject(`/files/${image.json().id}`)).statusCode).toBe(404);
      expect((await app.inject('/files/no-such-file')).statusCode).toBe(404);
      expect((await app.inject('/files/..%2Fetc')).statusCode).toBe(404);
    });

    it('refuses an empty file (400) and one over UPLOAD_FILE_MAX_MB (413), storing nothing', async () => {
      const before = await counts();
      const empty = await upload('product', { filename: 'empty.zip', data: Buffer.alloc(0) });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe('The file is empty: choose a file with something in it.');
      const large = await upload('product', {
        filename: 'large.zip',
        data: Buffer.alloc(1024 * 1024 + 1, 7),
      });
      expect(large.statusCode).toBe(413);
      expect(large.json().message).toBe('The file is too large: the limit is 1 MB.');
      expect(await counts()).toEqual(before);
    });

    it('refuses a form without its kind first, or with an unknown kind', async () => {
      const before = await counts();
      expect(
        (await upload('video', { filename: 'a.mp4', data: Buffer.from('x') })).statusCode,
      ).toBe(400);
      const fileFirst = multipartBody([
        { name: 'file', filename: 'a.pdf', data: Buffer.from('%PDF') },
        { name: 'kind', value: 'guide' },
      ]);
      const wrongOrder = await app.inject({
        method: 'POST',
        url: STORE_FILES_PATH,
        headers: {
          cookie: adminCookie,
          origin: app.config.publicUrl,
          'content-type': fileFirst.contentType,
        },
        payload: fileFirst.payload,
      });
      expect(wrongOrder.statusCode).toBe(400);
      expect(wrongOrder.json().message).toMatch(/"kind" .* and then "file"/);
      const noForm = await app.inject({
        method: 'POST',
        url: STORE_FILES_PATH,
        headers: { cookie: adminCookie, origin: app.config.publicUrl },
        payload: { kind: 'guide' },
      });
      expect(noForm.statusCode).toBe(400);
      expect(await counts()).toEqual(before);
    });

    it('an upload cut off half way stores nothing and leaves no transaction open', async () => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const before = await counts();
      const data = Buffer.alloc(900 * 1024, 3);
      const form = uploadForm('product', { filename: 'cut.zip', data });
      await new Promise<void>((resolve) => {
        const request = http.request({
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: STORE_FILES_PATH,
          headers: {
            cookie: adminCookie,
            origin: app.config.publicUrl,
            'content-type': form.contentType,
            'content-length': form.payload.length,
          },
        });
        request.on('error', () => resolve());
        request.on('close', () => resolve());
        // Well past the first chunk, then the connection drops.
        request.write(form.payload.subarray(0, 600 * 1024), () => {
          setTimeout(() => request.destroy(), 300);
        });
      });
      await eventually(async () => {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and xact_start is not null
            and pid <> pg_backend_pid()`.execute(use().db);
        return rows[0]!.n === 0 ? true : undefined;
      });
      expect(await counts()).toEqual(before);
    });
  });

  it('makes the page widths, never wider than the original', () => {
    expect(imageWidths).toEqual([480, 960, 1440]);
    expect(targetWidths(4000)).toEqual([480, 960, 1440]);
    expect(targetWidths(1440)).toEqual([480, 960, 1440]);
    expect(targetWidths(1000)).toEqual([480, 960, 1000]);
    expect(targetWidths(300)).toEqual([300]);
  });
});
