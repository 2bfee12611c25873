import { withAdminClient } from '../../tests/support/postgres-admin';

/** The PostgreSQL server to benchmark against, if the environment names one. */
export function postgresUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;
}

/** Creates an empty database on the server of `adminUrl`; returns its URL and a dropper. */
export async function createScratchDatabase(adminUrl: string) {
  const name = `soul_reset_bench_${process.pid}_${Date.now()}`;
  await withAdminClient(adminUrl, (client) => client.query(`create database "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withAdminClient(adminUrl, (client) =>
        client.query(`drop database if exists "${name}" with (force)`),
      ),
  };
}
