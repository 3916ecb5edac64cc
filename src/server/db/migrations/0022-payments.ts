import type { Kysely } from 'kysely';

/**
 * Money (issue 37, docs/decisions/0052): each payment, refund or waiver is a row of its own, with what it went to
 * in `payment_allocations` (a payment may settle several bookings). A booking keeps the sums of what went to it,
 * changed in the same transaction as the rows, so that lists and the devices' copies show where it stands
 * without reading every payment; a change of money is a change of the booking (its history says so). A bank
 * statement's line is known by its content's hash (`statement_line_key`, unique): a statement imported twice
 * records nothing twice. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('method', 'text')
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('paid_on', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('statement_line_key', 'text', (c) => c.unique())
    .addColumn('recorded_by_id', 'text')
    .addColumn('recorded_by_name', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payments_paid_on_idx').on('payments').columns(['paid_on', 'id']).execute();
  await db.schema
    .createTable('payment_allocations')
    .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id').onDelete('cascade'))
    .addColumn('booking_id', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_allocations_pk', ['payment_id', 'booking_id'])
    .execute();
  await db.schema
    .createIndex('payment_allocations_booking_idx')
    .on('payment_allocations')
    .columns(['booking_id'])
    .execute();
  for (const column of ['paid_cents', 'refunded_cents', 'waived_cents'])
    await db.schema
      .alterTable('bookings')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  await db.schema.alterTable('booking_changes').addColumn('payment', 'text').execute();
}
