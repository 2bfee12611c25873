import path from 'node:path';
import { freePort } from '../../tests/support/free-port';
import { startSmtpSink } from '../../tests/support/smtp-sink';
import { createScratchDatabase } from './postgres';
import { startBenchServer, type BenchServer } from './processes';
import { signInOverHttp } from './sign-in';

export const BENCH_ADMIN = 'owner@example.com';

export type AdminBenchServer = {
  server: BenchServer;
  /** The owner's session cookie. */
  cookie: string;
  close(): Promise<void>;
};

/**
 * The bench server on fresh data (a scratch PostgreSQL database when `postgresAdminUrl` is
 * given, else the embedded server in `dataDir`), with the owner signed in through a mail sink;
 * `env` adds settings.
 */
export async function startAdminBenchServer(
  root: string,
  dataDir: string,
  postgresAdminUrl?: string,
  env: Record<string, string> = {},
): Promise<AdminBenchServer> {
  const scratch = postgresAdminUrl ? await createScratchDatabase(postgresAdminUrl) : undefined;
  const sink = await startSmtpSink();
  const port = await freePort();
  const close = async (server?: BenchServer) => {
    await server?.stop();
    await sink.close();
    await scratch?.drop();
  };
  let server: BenchServer | undefined;
  try {
    server = await startBenchServer(['--import', 'tsx', path.join(root, 'bench/bench-server.ts')], {
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
      SMTP_URL: sink.url,
      ADMIN_EMAILS: BENCH_ADMIN,
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      ...env,
    });
    const cookie = await signInOverHttp(server.url, sink, BENCH_ADMIN);
    const started = server;
    return { server, cookie, close: () => close(started) };
  } catch (error) {
    await close(server);
    throw error;
  }
}
