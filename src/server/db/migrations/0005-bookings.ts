import { sql, type Kysely } from 'kysely';

/**
 * Bookings (spec §3, §4; DESIGN "Product decisions"): each keeps the student, module, category and prices as
 * they were when booked, and every change is a row of `booking_changes` (who, when, from, to). Ids are made
 * by the client, so a repeated request finds its row. Versions for `since` come from the `bookings` row of
 * `sync_counter`, as the board's do. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.insertInto('sync_counter').values({ name: 'bookings', value: 0 }).execute();

  await db.schema
    .createTable('bookings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Null once the student's account is deleted; the personal fields below are scrubbed then.
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('student_name', 'text', (c) => c.notNull())
    .addColumn('student_email', 'text', (c) => c.notNull())
    .addColumn('module_name', 'text', (c) => c.notNull())
    .addColumn('module_category', 'text', (c) =>
      c.notNull().check(sql`module_category in ('Computer Science', 'Mathematics', 'Statistics', 'Uncategorized')`),
    )
    .addColumn('price_cents_per_hour', 'integer', (c) => c.notNull().check(sql`price_cents_per_hour > 0`))
    .addColumn('total_cents', 'integer', (c) => c.notNull())
    // The session's date and times of day, SAST, as typed: `YYYY-MM-DD` and `HH:MM`.
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('slot1', 'text', (c) => c.notNull())
    .addColumn('slot2', 'text', (c) => c.notNull())
    .addColumn('slot3', 'text', (c) => c.notNull())
    .addColumn('confirmed_slot', 'text')
    // When the session starts (UTC ISO): the confirmed slot, else the earliest requested one. For the
    // reminder, the late-cancellation rule and "future bookings" at account deletion.
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('hours', 'integer', (c) => c.notNull().check(sql`hours between 1 and 8`))
    .addColumn('concepts', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('Pending', 'Confirmed', 'Completed', 'Cancelled')`),
    )
    .addColumn('late_cancellation', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`late_cancellation in (0, 1)`),
    )
    .addColumn('payment_reference', 'text', (c) => c.notNull().unique())
    .addColumn('reminder_sent_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  // The three lists (a student's, a category's, all), each newest session first with a keyset on
  // (date, created_at, id). The student's also serves the rate limit and the foreign key's SET NULL.
  const listOrder = ['date desc', 'created_at desc', 'id desc'];
  await db.schema
    .createIndex('bookings_user_listed_idx')
    .on('bookings')
    .columns(['user_id', ...listOrder])
    .execute();
  await db.schema
    .createIndex('bookings_category_listed_idx')
    .on('bookings')
    .columns(['module_category', ...listOrder])
    .execute();
  await db.schema.createIndex('bookings_listed_idx').on('bookings').columns(listOrder).execute();
  await db.schema.createIndex('bookings_version_idx').on('bookings').column('version').execute();
  // The reminder scan: confirmed sessions not yet reminded, by start.
  await db.schema
    .createIndex('bookings_reminder_due_idx')
    .on('bookings')
    .column('starts_at')
    .where(sql.ref('status'), '=', 'Confirmed')
    .where(sql.ref('reminder_sent_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('booking_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('booking_id', 'text', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
    // The booking's version after this change: orders a booking's history.
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    // Who, as they were then: the id goes with their account, the name is scrubbed with it.
    .addColumn('by_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('by_name', 'text', (c) => c.notNull())
    .addColumn('by_role', 'text')
    // Null for the request itself.
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('slot', 'text')
    .execute();
  await db.schema
    .createIndex('booking_changes_booking_idx')
    .on('booking_changes')
    .columns(['booking_id', 'version'])
    .execute();
  await db.schema.createIndex('booking_changes_by_user_idx').on('booking_changes').column('by_user_id').execute();
}
