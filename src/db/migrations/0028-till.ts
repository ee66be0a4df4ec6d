import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * The counter's money (issue 34).
 *
 * - `refunds`: money given back on a cancellation or credit note of a paid invoice, with its method
 *   (cash from the drawer, card reversal, transfer), who gave it and when; the invoice's `paid_minor`
 *   falls by it in the same transaction.
 * - `drawer_days`: a location's cash drawer for one day, opened with a float and closed with a
 *   count; on closing the day report is written whole into `report` (JSON) with the expected cash
 *   and the difference.
 * - `drawer_movements`: cash put in or taken out during the day, with a reason.
 * - Guards in the database, on both engines, as for issued documents (0025): a closed day never
 *   changes, a movement never changes, and no movement is added to a closed day.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .createTable('refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('location_id', 'text', (c) => c.notNull())
    // The correction (cancellation or credit note) the refund goes with, and the invoice it refunds.
    .addColumn('sale_id', 'text', (c) => c.notNull().references('sales.id').onDelete('cascade'))
    .addColumn('invoice_id', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('given_by', 'text')
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('live'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refunds_invoice_idx').on('refunds').columns(['company_id', 'invoice_id']).execute();
  await db.schema
    .createIndex('refunds_location_idx')
    .on('refunds')
    .columns(['company_id', 'location_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('drawer_days')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('location_id', 'text', (c) => c.notNull())
    // YYYY-MM-DD where the company is, the day it was opened.
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('float_minor', 'bigint', (c) => c.notNull())
    .addColumn('opened_at', t.timestamp, (c) => c.notNull())
    .addColumn('opened_by', 'text')
    .addColumn('closed_at', t.timestamp)
    .addColumn('closed_by', 'text')
    .addColumn('counted_minor', 'bigint')
    .addColumn('expected_minor', 'bigint')
    .addColumn('difference_minor', 'bigint')
    // JSON: the count by denomination ({"50.00": 2, …}) when given that way.
    .addColumn('denominations', 'text')
    // JSON: the day report as closed; what every later read answers.
    .addColumn('report', 'text')
    .execute();
  await db.schema
    .createIndex('drawer_days_day_idx')
    .on('drawer_days')
    .columns(['company_id', 'location_id', 'date'])
    .unique()
    .execute();
  // One open day per location.
  await db.schema
    .createIndex('drawer_days_open_idx')
    .on('drawer_days')
    .columns(['company_id', 'location_id'])
    .unique()
    .where(sql.ref('closed_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('drawer_movements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('day_id', 'text', (c) => c.notNull().references('drawer_days.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('recorded_by', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('drawer_movements_day_idx')
    .on('drawer_movements')
    .columns(['company_id', 'day_id', 'created_at'])
    .execute();

  const closed = `(SELECT closed_at FROM drawer_days WHERE id = NEW.day_id) IS NOT NULL`;
  if (engine === 'sqlite') {
    await sql
      .raw(`CREATE TRIGGER drawer_days_closed_frozen BEFORE UPDATE ON drawer_days FOR EACH ROW WHEN OLD.closed_at IS NOT NULL
            BEGIN SELECT RAISE(ABORT, 'closed drawer day: it cannot change'); END`)
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER drawer_movements_frozen BEFORE UPDATE ON drawer_movements FOR EACH ROW
            BEGIN SELECT RAISE(ABORT, 'drawer movement: it cannot change'); END`)
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER drawer_movements_closed_day BEFORE INSERT ON drawer_movements FOR EACH ROW WHEN ${closed}
            BEGIN SELECT RAISE(ABORT, 'closed drawer day: no movement can be added'); END`)
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER refunds_frozen BEFORE UPDATE ON refunds FOR EACH ROW
            BEGIN SELECT RAISE(ABORT, 'refund: it cannot change'); END`)
      .execute(db);
    return;
  }
  await sql
    .raw(`CREATE FUNCTION refuse_drawer_change() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'closed drawer day: % cannot change', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation'; END $$`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER drawer_days_closed_frozen BEFORE UPDATE ON drawer_days FOR EACH ROW WHEN (OLD.closed_at IS NOT NULL)
          EXECUTE FUNCTION refuse_drawer_change()`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER drawer_movements_frozen BEFORE UPDATE ON drawer_movements FOR EACH ROW
          EXECUTE FUNCTION refuse_drawer_change()`)
    .execute(db);
  // PostgreSQL's WHEN cannot hold a subquery: the function checks the day itself.
  await sql
    .raw(`CREATE FUNCTION refuse_movement_on_closed_day() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            IF ${closed} THEN
              RAISE EXCEPTION 'closed drawer day: no movement can be added' USING ERRCODE = 'integrity_constraint_violation';
            END IF;
            RETURN NEW;
          END $$`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER drawer_movements_closed_day BEFORE INSERT ON drawer_movements FOR EACH ROW
          EXECUTE FUNCTION refuse_movement_on_closed_day()`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER refunds_frozen BEFORE UPDATE ON refunds FOR EACH ROW
          EXECUTE FUNCTION refuse_drawer_change()`)
    .execute(db);
}
