/**
 * The test Postgres server (127.0.0.1:5432, database `test`, trust auth) and a unique schema
 * per test run, so parallel runs never collide. In CI (CI=true) a missing server fails the
 * tests instead of skipping them.
 */
import pg from 'pg';

export const PG_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether the server answers; throws in CI when it does not. */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (error) {
    if (process.env['CI'] === 'true') throw new Error(`CI needs Postgres at ${PG_URL} (.ci/run starts it): ${String(error)}`, { cause: error });
    return false;
  }
}

let counter = 0;
/** A schema name no other run uses. */
export function uniqueSchema(): string {
  return `t_${process.pid}_${Date.now().toString(36)}_${counter++}`;
}

/** Drops the schemas a test made. */
export async function dropSchemas(schemas: readonly string[]): Promise<void> {
  if (schemas.length === 0) return;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}
