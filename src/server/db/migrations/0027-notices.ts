import type { Kysely } from 'kysely';

/**
 * Notices (issue 38, docs/decisions/0059): each user's notifications list (`notices`, written with the change that
 * causes it; a row without a user is a fan-out to a topic's followers, expanded after the commit), its deliveries
 * through push and WhatsApp (`notice_deliveries`, claimed and retried as the mail outbox's e-mails are), who follows
 * what (`notice_follows`), each user's choices with their times (`notice_preferences`, JSON) and their devices' push
 * subscriptions. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text')
    .addColumn('topic', 'text')
    .addColumn('except_user_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('params', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .addColumn('dispatched_at', 'text')
    .execute();
  await db.schema.createIndex('notices_user_idx').on('notices').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('notices_dispatch_idx').on('notices').columns(['dispatched_at', 'created_at']).execute();
  await db.schema
    .createTable('notice_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('notice_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('provider_id', 'text')
    .addColumn('provider_status', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema
    .createIndex('notice_deliveries_due_idx')
    .on('notice_deliveries')
    .columns(['channel', 'status', 'next_attempt_at'])
    .execute();
  await db.schema.createIndex('notice_deliveries_user_idx').on('notice_deliveries').columns(['user_id']).execute();
  await db.schema
    .createIndex('notice_deliveries_provider_idx')
    .on('notice_deliveries')
    .columns(['provider_id'])
    .execute();
  await db.schema
    .createIndex('notice_deliveries_status_idx')
    .on('notice_deliveries')
    .columns(['status', 'created_at'])
    .execute();
  await db.schema
    .createTable('notice_follows')
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('notice_follows_pk', ['topic', 'user_id'])
    .execute();
  await db.schema.createIndex('notice_follows_user_idx').on('notice_follows').columns(['user_id']).execute();
  await db.schema
    .createTable('notice_preferences')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('preferences', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_user_idx').on('push_subscriptions').columns(['user_id']).execute();
}
