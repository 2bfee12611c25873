import type { Config } from './config/load-config';
import type { AppDatabase } from './db/database';
import type { Mailer } from './mail/mailer';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: AppDatabase;
    mailer: Mailer;
  }
}
