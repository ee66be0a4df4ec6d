// test-engines: both
import { after, before, test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTenant, createTestApp, onPostgres, type TestApp } from '../support/test-app.ts';
import { LEAK } from '../support/http-helpers.ts';
import { problemFor, toAppError } from '../../src/http/errors.ts';

describe('foreign key errors', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  /** The error the database itself raises, as a route would see it. */
  async function databaseError(work: () => Promise<unknown>): Promise<unknown> {
    try {
      await work();
    } catch (error) {
      return error;
    }
    assert.fail('the statement was expected to fail');
  }

  test(`a foreign-key violation from the database is a 409 problem, never a 500 (${onPostgres() ? 'PostgreSQL' : 'SQLite'})`, async () => {
    const d = await createTenant(t.c);
    const db = t.c.database.db;
    const product = d.products.find((p) => p.modelId !== null)!;

    const dangling = await databaseError(() =>
      db.updateTable('products').set({ model_id: 'mdl_missing' }).where('id', '=', product.id).execute(),
    );
    const inUse = await databaseError(() => db.deleteFrom('models').where('id', '=', product.modelId!).execute());

    for (const error of [dangling, inUse]) {
      const appError = toAppError(error);
      assert.equal(appError.code, 'conflict', String(error));
      const problem = problemFor(appError, 'req-1');
      assert.equal(problem.status, 409);
      assert.doesNotMatch(JSON.stringify(problem), LEAK);
      assert.doesNotMatch(problem.detail, /foreign|constraint|models|products/i);
    }

    // Other database errors stay a 500 that says nothing of SQL.
    const other = await databaseError(() => sql`select no_such_column from products`.execute(db));
    assert.equal(toAppError(other).code, 'internal');
  });
});
