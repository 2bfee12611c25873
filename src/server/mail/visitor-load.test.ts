import { describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually';
import { buildTestApp } from '../../../tests/support/test-app';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { createVisitorLoad, visitorsWaiting } from './visitor-load';

describe('visitor load', () => {
  it('counts requests begun and not ended, each ended once however often its end is called', () => {
    const load = createVisitorLoad();
    const waiting = visitorsWaiting(load.buffer);
    expect(waiting()).toBe(false);
    const first = load.begin();
    const second = load.begin();
    first();
    first();
    expect(waiting()).toBe(true);
    second();
    expect(waiting()).toBe(false);
  });
});

describeEachDatabase('visitor load of the app', (use) => {
  it('counts a request while it is answered, and not after its response', async () => {
    let during = -1;
    const app = await buildTestApp(use(), {
      mailThread: true,
      configure: (instance) =>
        instance.get('/__visitor-load', async () => {
          during = new Int32Array(instance.mailThread!.visitorLoad.buffer)[0]!;
          return { ok: true };
        }),
    });
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const response = await fetch(`${url}/__visitor-load`);
      expect(response.status).toBe(200);
      expect(during).toBe(1);
      const waiting = visitorsWaiting(app.mailThread!.visitorLoad.buffer);
      expect(await eventually(async () => !waiting() || undefined)).toBe(true);
    } finally {
      await app.close();
    }
  });
});
