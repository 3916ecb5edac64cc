import type { Kysely } from 'kysely';

/**
 * Monthly packages (issue 37 §3, docs/decisions/0054). The admin's offers are JSON rows (`package_offers`, read
 * back through common/packages.ts's schema); each package a student buys is a row of its own with its reference
 * (unique), the minutes sessions took and the sums of the money recorded for it, changed under the bookings' lock
 * with the session that draws from it. A payment for a package names it (`payments.package_id`) and has no
 * allocations to bookings; a session that drew keeps what it took (`bookings.package_draw`, JSON). Frozen once
 * landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('package_offers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('offer', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('packages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('offer_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('module_name', 'text')
    .addColumn('minutes', 'integer', (c) => c.notNull())
    .addColumn('used_minutes', 'integer', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('carry_over', 'integer', (c) => c.notNull())
    .addColumn('late_cancel', 'text', (c) => c.notNull())
    .addColumn('student_id', 'text')
    .addColumn('student_name', 'text', (c) => c.notNull())
    .addColumn('student_email', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('valid_until', 'text', (c) => c.notNull())
    .addColumn('payment_reference', 'text', (c) => c.notNull().unique())
    .addColumn('paid_cents', 'integer', (c) => c.notNull())
    .addColumn('refunded_cents', 'integer', (c) => c.notNull())
    .addColumn('waived_cents', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('packages_student_idx').on('packages').columns(['student_id', 'created_at']).execute();
  await db.schema.createIndex('packages_created_idx').on('packages').columns(['created_at', 'id']).execute();
  await db.schema.alterTable('payments').addColumn('package_id', 'text').execute();
  await db.schema.createIndex('payments_package_idx').on('payments').columns(['package_id']).execute();
  await db.schema.alterTable('bookings').addColumn('package_draw', 'text').execute();
}
