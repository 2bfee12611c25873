import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { useOrdersApp } from '../../../../tests/support/orders-app';
import { describeEachDatabase } from '../../../../tests/support/test-database';
import { createLink } from '../../orders/download-links';
import { storeStreamedFile } from './stored-files';

/**
 * A measurement, not a check of timing: MEASURE_DOWNLOADS=1 streams a 50 MB product file to 8
 * clients at once through download links and prints how far the process's RSS grew.
 *   MEASURE_DOWNLOADS=1 npx vitest run src/server/store/files/download-memory.test.ts
 */
const SIZE = 50 * 1024 * 1024;
const CLIENTS = 8;

async function* generated(seed: number) {
  const piece = Buffer.alloc(64 * 1024);
  for (let at = 0; at < SIZE; at += piece.length) {
    for (let i = 0; i < piece.length; i += 4) piece.writeUInt32LE((at + i + seed) >>> 0, i);
    yield Buffer.from(piece);
  }
}

describeEachDatabase('streaming a stored product file', (use) => {
  const orderApp = useOrdersApp(use);

  it.runIf(process.env.MEASURE_DOWNLOADS)(
    `${CLIENTS} concurrent downloads of a 50 MB file keep memory flat`,
    async () => {
      const { app } = orderApp;
      const { db } = use();
      const file = await db.transaction().execute((trx) =>
        storeStreamedFile(trx, {
          kind: 'product',
          name: 'big.zip',
          bytes: generated(1),
          maxBytes: SIZE,
          createdBy: 'owner@example.com',
        }),
      );
      const live = app.store.published();
      const published = {
        ...live,
        content: { ...live.content, product: { ...live.content.product, file: file.id } },
      };
      app.store.published = () => published;
      const order = await db
        .insertInto('orders')
        .values({ session_id: 'cs_test_memory', status: 'paid', paid_at: new Date() })
        .returning('id')
        .executeTakeFirstOrThrow();
      const links = [];
      for (let i = 0; i < CLIENTS; i++) {
        links.push((await createLink(db, order.id, { linkHours: 1, downloadLimit: 5 })).token);
      }
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;

      global.gc?.();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 10);
      const started = performance.now();
      const hashes = await Promise.all(
        links.map(
          (token) =>
            new Promise<{ hash: string; bytes: number }>((resolve, reject) => {
              http
                .get({ host: '127.0.0.1', port, path: `/download/${token}` }, (response) => {
                  const hash = createHash('sha256');
                  let bytes = 0;
                  response.on('data', (piece: Buffer) => {
                    bytes += piece.length;
                    hash.update(piece);
                  });
                  response.on('end', () => resolve({ hash: hash.digest('hex'), bytes }));
                  response.on('error', reject);
                })
                .on('error', reject);
            }),
        ),
      );
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      for (const { hash, bytes } of hashes) {
        expect(bytes).toBe(SIZE);
        expect(hash).toBe(file.sha256);
      }
      const growthMb = (peak - baseline) / 1024 / 1024;
      console.log(
        `${CLIENTS} × 50 MB in ${seconds.toFixed(1)} s (${((CLIENTS * 50) / seconds).toFixed(0)} MB/s); ` +
          `RSS ${(baseline / 1024 / 1024).toFixed(0)} MB before, peak ${(peak / 1024 / 1024).toFixed(0)} MB: ` +
          `grew ${growthMb.toFixed(1)} MB`,
      );
      expect(growthMb).toBeLessThan(50);
    },
    300_000,
  );
});
