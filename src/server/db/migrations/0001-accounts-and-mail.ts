import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Accounts (the tables better-auth uses, with snake_case columns mapped in auth/auth.ts), staff roles,
 * and the e-mail outbox. Frozen once landed: later changes go into new migrations.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  // better-auth passes Date and boolean values; give each database its native types for them.
  const date = pg ? 'timestamptz' : 'date';
  const bool = pg ? 'boolean' : 'integer';

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('email_verified', bool, (c) => c.notNull().defaultTo(pg ? sql`false` : 0))
    .addColumn('image', 'text')
    .addColumn('role', 'text', (c) =>
      c
        .notNull()
        .defaultTo('student')
        .check(sql`role in ('student', 'tutor', 'admin')`),
    )
    .addColumn('created_at', date, (c) => c.notNull())
    .addColumn('updated_at', date, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', date, (c) => c.notNull())
    .addColumn('ip_address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', date, (c) => c.notNull())
    .addColumn('updated_at', date, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('access_token', 'text')
    .addColumn('refresh_token', 'text')
    .addColumn('id_token', 'text')
    .addColumn('access_token_expires_at', date)
    .addColumn('refresh_token_expires_at', date)
    .addColumn('scope', 'text')
    .addColumn('password', 'text')
    .addColumn('created_at', date, (c) => c.notNull())
    .addColumn('updated_at', date, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('accounts_user_id_idx').on('accounts').column('user_id').execute();

  await db.schema
    .createTable('verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('identifier', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('expires_at', date, (c) => c.notNull())
    .addColumn('created_at', date, (c) => c.notNull())
    .addColumn('updated_at', date, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('verifications_identifier_idx').on('verifications').column('identifier').execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('last_request', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tutor_categories')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('category', 'text', (c) =>
      c.notNull().check(sql`category in ('Computer Science', 'Mathematics', 'Statistics')`),
    )
    .addPrimaryKeyConstraint('tutor_categories_pk', ['user_id', 'category'])
    .execute();

  await db.schema
    .createTable('email_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    // Makes "send this once" e-mails (the welcome) idempotent.
    .addColumn('dedupe_key', 'text', (c) => c.unique())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'sent', 'failed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema
    .createIndex('email_outbox_due_idx')
    .on('email_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();
}
