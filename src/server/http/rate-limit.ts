import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

/**
 * Registers the limiter without a global limit: each route opts in with its own budget
 * (`config.rateLimit` or `app.rateLimit()`). With REDIS_URL every instance counts in one
 * shared store; without it, each process counts alone.
 */
export const rateLimits = fp(async (app) => {
  const redis = app.config.redisUrl
    ? new Redis(app.config.redisUrl, {
        connectTimeout: 1_000,
        // Bounded waits: a slow or absent Redis costs a request at most half a second.
        commandTimeout: 500,
        maxRetriesPerRequest: 1,
      })
    : undefined;
  if (redis) {
    redis.on('error', (error) => app.log.warn({ err: error }, 'Redis rate-limit store error'));
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: false,
    redis,
    nameSpace: 'soul-reset-rl:',
    // A Redis outage must not take the site down with it: requests pass unlimited meanwhile.
    skipOnError: true,
  });
});
