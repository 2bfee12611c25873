import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hostileString } from '../support/fuzz/hostile-values';
import { buildTestApp } from '../support/test-app';
import { testConfig } from '../support/test-config';
import { describeEachDatabase } from '../support/test-database';

const RUNS = 150;

/** Lone surrogates as U+FFFD: a browser's address bar can carry nothing else. */
const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
const contentTypes = [
  undefined,
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/plain',
  'application/json',
  'application/octet-stream',
];

describeEachDatabase('fuzzed requests to the mailing list links', (use) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await buildTestApp(use(), { config: await testConfig({ FORM_RATE_LIMIT: '100000' }) });
    // One real subscriber whose state must survive every forged link.
    await app.inject({
      method: 'POST',
      url: '/api/forms/free-guide',
      payload: { name: 'Kept', email: 'kept@example.com', listConsent: true },
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it('answers every token and body with the same page or a clear 4xx, changing nothing', async () => {
    const pages = new Map<string, Set<string>>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('confirm', 'unsubscribe'),
        fc.constantFrom('GET', 'POST'),
        fc.oneof(
          fc.string({ minLength: 43, maxLength: 43 }),
          hostileString(300),
          fc.base64String({ minLength: 40, maxLength: 48 }),
        ),
        fc.constantFrom(...contentTypes),
        fc.oneof(fc.constant('List-Unsubscribe=One-Click'), hostileString(3000)),
        async (kind, method, token, contentType, body) => {
          const url = `/list/${kind}/${encodeURIComponent(wellFormed(token))}`;
          const answer = await app.inject({
            method: method as 'GET' | 'POST',
            url,
            ...(method === 'POST'
              ? {
                  payload: body,
                  headers: contentType ? { 'content-type': contentType } : {},
                }
              : {}),
          });
          expect(answer.statusCode).toBeLessThan(500);
          if (answer.statusCode === 200) {
            // The page names no one: the same for every token but the form's own address.
            const page = answer.body.replace(/action="[^"]*"/, 'action=""');
            const key = `${method} ${kind}`;
            pages.set(key, (pages.get(key) ?? new Set()).add(page));
          } else {
            expect([400, 404, 413, 414, 415]).toContain(answer.statusCode);
          }
        },
      ),
      { numRuns: RUNS },
    );
    for (const [key, seen] of pages) expect(seen.size, key).toBe(1);
    const kept = await use()
      .db.selectFrom('list_subscribers')
      .select('status')
      .where('email', '=', 'kept@example.com')
      .executeTakeFirstOrThrow();
    expect(kept.status).toBe('pending');
    expect((await app.inject('/healthz')).statusCode).toBe(200);
  });
});
