import type { Config } from './config/load-config';
import type { AppDatabase } from './db/database';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: AppDatabase;
  }
}
