import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, errorHandling } from './errors';
import { NOT_FROM_THE_SITE, requireSameOrigin } from './same-origin';

describe('requireSameOrigin', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    await app.register(errorHandling);
    app.post('/write', async (request) => {
      requireSameOrigin(request, 'https://shop.example.com/store/');
      return { written: true };
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const post = (headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/write', headers, payload: {} });

  it("lets a request from PUBLIC_URL's origin through", async () => {
    const response = await post({ origin: 'https://shop.example.com' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ written: true });
  });

  it('refuses no Origin, another site, another scheme, port or subdomain with one 403', async () => {
    for (const origin of [
      undefined,
      'https://evil.example.com',
      'http://shop.example.com',
      'https://shop.example.com:8443',
      'https://shop.example.com.evil.net',
      'null',
    ]) {
      const response = await post(origin === undefined ? {} : { origin });
      expect(response.statusCode, String(origin)).toBe(403);
      expect(response.json()).toEqual({
        error: 'Forbidden',
        message: 'This request must come from the site itself.',
      });
    }
    expect(errorBody(403, NOT_FROM_THE_SITE)).toEqual({
      error: 'Forbidden',
      message: NOT_FROM_THE_SITE,
    });
  });
});
