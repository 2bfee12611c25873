import { getMigrations } from 'better-auth/db/migration';
import Fastify from 'fastify';
import { expect, it } from 'vitest';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { authOptions } from './create-auth';

describeEachDatabase('the auth tables of migration 0002', (use) => {
  it('are everything better-auth expects: it finds nothing to create or add', async () => {
    const config = await testConfig({ AUTH_SECRET: 'test-secret-of-at-least-32-characters' });
    const options = authOptions({
      config,
      db: use().db,
      mailer: { send: async () => ({ status: 'sent' }), parallel: 1, close: async () => {} },
      logger: Fastify({ logger: false }).log,
    });
    const { toBeCreated, toBeAdded } = await getMigrations(options);
    expect(toBeCreated.map((table) => table.table)).toEqual([]);
    expect(toBeAdded.map((table) => `${table.table}: ${Object.keys(table.fields)}`)).toEqual([]);
  });
});
