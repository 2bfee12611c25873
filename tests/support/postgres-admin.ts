import pg from 'pg';

/** A short-lived connection for creating and dropping test databases. */
export async function withAdminClient<T>(adminUrl: string, run: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
