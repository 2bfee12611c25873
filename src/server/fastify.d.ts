import type { Config } from './config/load-config';
import type { AppDatabase } from './db/database';
import type { Mailer } from './mail/mailer';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: AppDatabase;
    mailer: Mailer;
    /** Set when the instance is stopping: /readyz answers 503, every answer closes its connection. */
    lifecycle: { draining: boolean };
  }
}
