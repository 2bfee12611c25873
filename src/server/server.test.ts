import { access } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../tests/support/test-config';
import { startServer } from './server';

describe('startServer', () => {
  it('migrates, listens, and on close finishes in-flight requests, then releases the data dir', async () => {
    const config = await testConfig({ PORT: '0' });
    let releaseSlow!: () => void;
    const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
    let slowStarted!: () => void;
    const slowArrived = new Promise<void>((resolve) => (slowStarted = resolve));
    const server = await startServer(config, {
      configure: (app) =>
        app.get('/test/slow', async () => {
          slowStarted();
          await slowGate;
          return { finished: true };
        }),
    });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const tables = await server.database.db.selectFrom('form_submissions').select('id').execute();
    expect(tables).toEqual([]);

    const inFlight = fetch(`${server.url}/test/slow`);
    await slowArrived;
    const closing = server.close();
    // While closing, new connections are soon refused...
    await expect
      .poll(
        () =>
          fetch(`${server.url}/healthz`).then(
            () => 'accepted',
            () => 'refused',
          ),
        {
          timeout: 5_000,
        },
      )
      .toBe('refused');
    // ...but the request already running still gets its answer.
    releaseSlow();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ finished: true });
    await closing;

    await expect(server.database.ping()).rejects.toThrow();
    await expect(access(path.join(config.dataDir, 'pglite.lock'))).rejects.toThrow(/ENOENT/);
  }, 60_000);

  it('keeps the data across a restart on the same data dir', async () => {
    const config = await testConfig({ PORT: '0' });
    const first = await startServer(config);
    await first.database.db
      .insertInto('refund_inquiries')
      .values({ name: 'Kept', email: 'kept@example.com', message: 'still here?' })
      .execute();
    await first.close();
    const second = await startServer(config);
    const rows = await second.database.db
      .selectFrom('refund_inquiries')
      .select(['name', 'message'])
      .execute();
    expect(rows).toEqual([{ name: 'Kept', message: 'still here?' }]);
    await second.close();
  }, 60_000);
});
