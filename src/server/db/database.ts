import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import path from 'node:path';
import { lockDataDir } from './data-dir-lock';
import { CLUSTER_DIR, startEmbeddedPostgres } from './embedded-postgres';
import { INT8_OID, parseInt8 } from './int8';
import type { Config } from '../config/load-config';
import type { Database } from './schema';

/** The app's own PostgreSQL in DATA_DIR, or a PostgreSQL server at DATABASE_URL. */
export type DatabaseKind = 'embedded-postgres' | 'postgres';

export type AppDatabase = {
  kind: DatabaseKind;
  /** Where the data lives, without credentials: for logs and the start banner. */
  label: string;
  /**
   * The connection string, credentials included, for another thread of this process that opens
   * a pool of its own (the mail thread). Never logged: `label` is for that.
   */
  url: string;
  db: Kysely<Database>;
  /**
   * A connection of its own, outside the pool and not yet connected (LISTEN needs one that
   * stays open); the caller connects and ends it.
   */
  newClient(): pg.Client;
  /**
   * Runs a compiled query as a prepared statement, one name per distinct text: each connection
   * of the pool parses it once, and PostgreSQL plans it once when a generic plan serves as well
   * as one made for the values. For hot reads whose text does not vary with their input (the
   * values go in parameters); every distinct text stays prepared on each connection.
   */
  prepared<R>(query: CompiledQuery<R>): Promise<R[]>;
  /** Resolves when the database answers a query. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

/**
 * Runs on the embedded server's database once it has started, before anything else uses it:
 * the commands that open DATA_DIR pass backup/import-pglite.ts's, which carries over the data
 * an earlier version kept in PGlite (db/ sits below backup/ and does not import it).
 */
export type CarryOver = (
  dataDir: string,
  db: Kysely<Database>,
  notify: (line: string) => void,
) => Promise<void>;

export type DatabaseOptions =
  | { databaseUrl: string; poolSize?: number }
  | {
      dataDir: string;
      poolSize?: number;
      /** Lines the owner should read (an old server stopped, old data carried over). */
      notify?: (line: string) => void;
      carryOver?: CarryOver;
    };

const DEFAULT_POOL_SIZE = 10;

/** DATABASE_URL, or the embedded server in DATA_DIR, which tells the owner what it did. */
export function databaseOptions(config: Config, carryOver: CarryOver): DatabaseOptions {
  return config.databaseUrl
    ? { databaseUrl: config.databaseUrl }
    : { dataDir: config.dataDir, notify: (line) => console.log(line), carryOver };
}

export async function openDatabase(options: DatabaseOptions): Promise<AppDatabase> {
  const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
  if ('databaseUrl' in options) {
    return openPool(options.databaseUrl, poolSize, {
      kind: 'postgres',
      label: `PostgreSQL at ${describePostgresUrl(options.databaseUrl)}`,
    });
  }
  return openEmbedded(options.dataDir, poolSize, options.notify ?? (() => {}), options.carryOver);
}

/**
 * DATA_DIR is this process's alone (the lock): its server is started here, stopped when the
 * database is closed, and `carryOver` runs before the database is handed out.
 */
async function openEmbedded(
  dataDir: string,
  poolSize: number,
  notify: (line: string) => void,
  carryOver: CarryOver | undefined,
): Promise<AppDatabase> {
  const lock = await lockDataDir(dataDir);
  const stopped: (() => Promise<void>)[] = [() => lock.release()];
  const unwind = async () => {
    let failure: unknown;
    while (stopped.length > 0)
      await stopped.pop()!().catch((error: unknown) => (failure ??= error));
    if (failure) throw failure;
  };
  try {
    const server = await startEmbeddedPostgres(dataDir, {
      onOrphan: (pid) =>
        notify(`Stopped the embedded PostgreSQL (pid ${pid}) that a killed start left running.`),
    });
    stopped.push(() => server.stop());
    const database = openPool(server.url(), poolSize, {
      kind: 'embedded-postgres',
      label: `embedded PostgreSQL 17 in ${path.join(dataDir, CLUSTER_DIR)}`,
    });
    stopped.push(() => database.close());
    await carryOver?.(dataDir, database.db, notify);
    let closing: Promise<void> | undefined;
    return { ...database, close: () => (closing ??= unwind()) };
  } catch (error) {
    await unwind();
    throw error;
  }
}

function openPool(
  connectionString: string,
  poolSize: number,
  identity: { kind: DatabaseKind; label: string },
): AppDatabase {
  const settings = {
    connectionString,
    // Fail fast while the server is down instead of queueing requests for ever.
    connectionTimeoutMillis: 5_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? parseInt8
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  };
  const pool = new pg.Pool({ ...settings, max: poolSize });
  // A client losing its connection (server restart, network cut) must not crash the process.
  // The pool handles idle clients ('error' on the pool); a client Kysely has checked out has
  // no listener of its own, so its 'error' would be uncaught. The query in flight still
  // fails, and the pool drops the broken client when it is released.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  let closed = false;
  // Kysely's destroy() leaves a driver it never started reusable: the pool is handed out
  // through this function, which refuses once closed, so a late query fails either way.
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: async () => {
        if (closed) throw new Error('The database is closed.');
        return pool;
      },
    }),
  });
  // Statement names by text: node-postgres prepares a name once per connection, and refuses a
  // name already prepared there with another text.
  const names = new Map<string, string>();
  let closing: Promise<void> | undefined;
  return {
    ...identity,
    url: connectionString,
    db,
    newClient: () => {
      if (closed) throw new Error('The database is closed.');
      return new pg.Client(settings);
    },
    prepared: async <R>(query: CompiledQuery<R>) => {
      if (closed) throw new Error('The database is closed.');
      let name = names.get(query.sql);
      if (name === undefined) {
        name = `prepared_${names.size + 1}`;
        names.set(query.sql, name);
      }
      const result = await pool.query({ name, text: query.sql, values: [...query.parameters] });
      return result.rows as R[];
    },
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () =>
      (closing ??= (async () => {
        closed = true;
        await db.destroy();
        if (!pool.ending) await pool.end();
      })()),
  };
}

export function describePostgresUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const socket = url.searchParams.get('host');
  if (socket?.startsWith('/')) return `${socket}${url.pathname}`;
  return `${url.hostname || 'localhost'}:${url.port || 5432}${url.pathname}`;
}
