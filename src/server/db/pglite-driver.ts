import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * A Kysely dialect for PGlite's single connection. Each acquired connection (a transaction
 * included) holds a lock until it is released, so concurrent requests queue instead of
 * interleaving statements: otherwise one request's ROLLBACK would undo another's insert.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  #queue: Promise<void> = Promise.resolve();
  #connection: PGliteConnection;

  constructor(pglite: PGlite) {
    this.#connection = new PGliteConnection(pglite);
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.#queue;
    let release!: () => void;
    this.#queue = new Promise((resolve) => (release = resolve));
    await previous;
    this.#connection.release = release;
    return this.#connection;
  }

  async releaseConnection(connection: DatabaseConnection) {
    (connection as PGliteConnection).release();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${isolation}`));
  }

  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy() {
    // The owner of the PGlite instance closes it (see database.ts), after in-flight work.
    await this.#queue;
  }
}

/**
 * node-postgres sends a lone surrogate as U+FFFD (it encodes with Buffer.from); PGlite sends
 * bytes PostgreSQL refuses as invalid UTF-8, failing the statement. Both store U+FFFD.
 */
function wellFormed(value: unknown): unknown {
  return typeof value === 'string'
    ? (value as string & { toWellFormed(): string }).toWellFormed()
    : value;
}

class PGliteConnection implements DatabaseConnection {
  release: () => void = () => {};

  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    // Like node-postgres: a query without parameters goes over the simple protocol, which
    // accepts several statements (migrations); one with parameters is a single prepared one.
    if (compiledQuery.parameters.length === 0) {
      const results = await this.pglite.exec(compiledQuery.sql);
      const last = results.at(-1);
      return {
        rows: (last?.rows ?? []) as R[],
        numAffectedRows: BigInt(last?.rowCount ?? last?.affectedRows ?? 0),
      };
    }
    const result = await this.pglite.query<R>(
      compiledQuery.sql,
      compiledQuery.parameters.map(wellFormed),
    );
    return {
      rows: result.rows,
      numAffectedRows: BigInt(result.rowCount ?? result.affectedRows ?? 0),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on the embedded database.');
  }
}
