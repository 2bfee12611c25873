import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { uploadForm } from '../../../../tests/support/multipart';
import { bundleBytes, linkIn, OWNER, useOrdersApp } from '../../../../tests/support/orders-app';
import { signIn } from '../../../../tests/support/sign-in';
import { checkoutSession } from '../../../../tests/support/stripe-events';
import { describeEachDatabase } from '../../../../tests/support/test-database';
import { STORE_FILES_PATH, type UploadedFile } from '../../../shared/store/files-api';
import type { PublishedStore } from '../store-plugin';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Bytes that differ at every offset from another file's of the same seed. */
function fileBytes(size: number, seed: number): Buffer {
  const data = Buffer.alloc(size);
  for (let i = 0; i < size; i++) data[i] = (i * 31 + seed * 97 + (i >> 12)) & 255;
  return data;
}

describeEachDatabase('download links deliver the uploaded product file', (use) => {
  const orderApp = useOrdersApp(use);
  const { pay, receiptFor, download } = orderApp;
  let cookie: string;
  let seed: () => PublishedStore;
  let port: number;

  beforeAll(async () => {
    const { app } = orderApp;
    cookie = await signIn(app, orderApp.sink, OWNER);
    seed = app.store.published;
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => {
    if (seed) orderApp.app.store.published = seed;
  });

  async function uploadProduct(name: string, data: Buffer): Promise<UploadedFile> {
    const form = uploadForm('product', { filename: name, data });
    const response = await orderApp.app.inject({
      method: 'POST',
      url: STORE_FILES_PATH,
      payload: form.payload,
      headers: { cookie, origin: orderApp.app.config.publicUrl, 'content-type': form.contentType },
    });
    expect(response.statusCode).toBe(201);
    return response.json() as UploadedFile;
  }

  /** What the store's publish does for this test: the live content names another product file. */
  function publishProductFile(file: string | null) {
    const live = seed();
    const published: PublishedStore = {
      ...live,
      version: live.version + 1,
      content: { ...live.content, product: { ...live.content.product, file } },
    };
    orderApp.app.store.published = () => published;
  }

  async function paidLink(email: string): Promise<string> {
    await pay(checkoutSession({ customer_details: { email, name: null } }));
    return linkIn(await receiptFor(email));
  }

  it('serves BUNDLE_FILE while the content names no file, then exactly the uploaded bytes', async () => {
    publishProductFile(null);
    const before = await download(await paidLink('first@example.com'));
    expect(before.statusCode).toBe(200);
    expect(sha256(before.rawPayload)).toBe(sha256(bundleBytes));

    const data = fileBytes(1_300_000, 1);
    const file = await uploadProduct('Soul Reset Bundle v2.zip', data);
    publishProductFile(file.id);
    const session = checkoutSession({
      customer_details: { email: 'second@example.com', name: null },
    });
    await pay(session);
    const response = await download(linkIn(await receiptFor('second@example.com')));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-length']).toBe(String(data.length));
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="Soul Reset Bundle v2\.zip"/,
    );
    expect(sha256(response.rawPayload)).toBe(sha256(data));
    // The thank-you page's direct download too.
    const direct = await download(`/api/orders/session/${session.id}/download`);
    expect(direct.statusCode).toBe(200);
    expect(sha256(direct.rawPayload)).toBe(sha256(data));
    // And never at the guide address.
    expect((await orderApp.app.inject(`/files/${file.id}`)).statusCode).toBe(404);
  });

  it('a download in flight finishes with the file it started with when the product file is replaced', async () => {
    // Larger than what the sockets' buffers hold, so the server is still reading when it changes.
    const first = fileBytes(24_000_000, 2);
    const firstFile = await uploadProduct('first.zip', first);
    publishProductFile(firstFile.id);
    const link = await paidLink('slow@example.com');

    const received: Buffer[] = [];
    let replaced = false;
    const done = new Promise<{ status: number }>((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port, path: link }, (response) => {
        response.on('data', (piece: Buffer) => {
          received.push(piece);
          if (replaced) return;
          replaced = true;
          // A slow reader: stop, replace the product file meanwhile, then read on.
          response.pause();
          void (async () => {
            const second = await uploadProduct('second.zip', fileBytes(2_000_000, 3));
            publishProductFile(second.id);
            await new Promise((resume) => setTimeout(resume, 200));
            response.resume();
          })().catch(reject);
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
        response.on('error', reject);
      });
      request.on('error', reject);
    });
    const { status } = await done;
    expect(status).toBe(200);
    expect(replaced).toBe(true);
    const body = Buffer.concat(received);
    expect(body.length).toBe(first.length);
    expect(sha256(body)).toBe(sha256(first));

    // The next download gets the new file.
    const next = await download(await paidLink('next@example.com'));
    expect(next.headers['content-disposition']).toMatch(/filename="second\.zip"/);
    expect(sha256(next.rawPayload)).toBe(sha256(fileBytes(2_000_000, 3)));
  }, 60_000);

  it('a published id that is no stored product file is a 503 that costs the link nothing', async () => {
    const link = await paidLink('missing@example.com');
    publishProductFile('no-such-file');
    const response = await download(link);
    expect(response.statusCode).toBe(503);
    const stored = await use()
      .db.selectFrom('download_links')
      .select('downloads')
      .executeTakeFirstOrThrow();
    expect(stored.downloads).toBe(0);
  });
});
