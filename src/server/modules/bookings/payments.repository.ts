import type { Selectable } from 'kysely';
import { bankMappingSchema } from '../../../common/statements.ts';
import type { Db } from '../../db/create-db.ts';
import type { IgnoredStatementLine, PaymentAllocation, PaymentRecord, PaymentsRepository } from './payments.storage.ts';
import type { PaymentsTable } from './payments.table.ts';

type PaymentRow = Selectable<PaymentsTable>;

const toRecord = (row: PaymentRow, allocations: PaymentAllocation[]): PaymentRecord => ({
  id: row.id,
  kind: row.kind,
  method: row.method,
  amountCents: row.amount_cents,
  paidOn: row.paid_on,
  reference: row.reference,
  note: row.note,
  statementLineKey: row.statement_line_key,
  recordedBy: { id: row.recorded_by_id, name: row.recorded_by_name },
  recordedAt: row.recorded_at,
  allocations,
  ...(row.package_id ? { packageId: row.package_id } : {}),
});

/** A statement's line keys asked for at once: well under SQLite's and PostgreSQL's limits on parameters. */
const keysPerQuery = 500;

/** The keys in slices of `keysPerQuery`. */
const slices = <T>(keys: readonly T[]) =>
  Array.from({ length: Math.ceil(keys.length / keysPerQuery) }, (_, i) =>
    keys.slice(i * keysPerQuery, (i + 1) * keysPerQuery),
  );

/** Payments on SQLite and PostgreSQL: `payments`, and what each went to in `payment_allocations`. */
export function createPaymentsRepository(db: Db): PaymentsRepository {
  /** The rows whole, with their allocations (each booking's in id order), in the rows' order. */
  async function withAllocations(rows: PaymentRow[]): Promise<PaymentRecord[]> {
    if (rows.length === 0) return [];
    const allocations = await db
      .selectFrom('payment_allocations')
      .selectAll()
      .where(
        'payment_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('booking_id')
      .execute();
    const byPayment = Map.groupBy(allocations, (a) => a.payment_id);
    return rows.map((row) =>
      toRecord(
        row,
        (byPayment.get(row.id) ?? []).map((a) => ({ bookingId: a.booking_id, amountCents: a.amount_cents })),
      ),
    );
  }

  async function findWhere(column: 'id' | 'statement_line_key', value: string) {
    const row = await db.selectFrom('payments').selectAll().where(column, '=', value).executeTakeFirst();
    return row && (await withAllocations([row]))[0];
  }

  return {
    find: (id) => findWhere('id', id),

    findByStatementLine: (key) => findWhere('statement_line_key', key),

    async recordedStatementLines(keys) {
      const found = new Set<string>();
      for (let i = 0; i < keys.length; i += keysPerQuery) {
        const rows = await db
          .selectFrom('payments')
          .select('statement_line_key')
          .where('statement_line_key', 'in', keys.slice(i, i + keysPerQuery))
          .execute();
        for (const row of rows) if (row.statement_line_key) found.add(row.statement_line_key);
      }
      return found;
    },

    async ignoredStatementLines(keys) {
      const found = new Map<string, IgnoredStatementLine>();
      for (const slice of slices(keys)) {
        const rows = await db
          .selectFrom('ignored_statement_lines')
          .selectAll()
          .where('line_key', 'in', slice)
          .execute();
        for (const row of rows)
          found.set(row.line_key, {
            key: row.line_key,
            ignoredBy: { id: row.ignored_by_id, name: row.ignored_by_name },
            ignoredAt: row.ignored_at,
          });
      }
      return found;
    },

    async ignoreStatementLines(lines) {
      for (const slice of slices(lines))
        await db
          .insertInto('ignored_statement_lines')
          .values(
            slice.map((line) => ({
              line_key: line.key,
              ignored_by_id: line.ignoredBy.id,
              ignored_by_name: line.ignoredBy.name,
              ignored_at: line.ignoredAt,
            })),
          )
          .onConflict((oc) => oc.column('line_key').doNothing())
          .execute();
    },

    async unignoreStatementLines(keys) {
      for (const slice of slices(keys))
        await db.deleteFrom('ignored_statement_lines').where('line_key', 'in', slice).execute();
    },

    async listBankMappings() {
      const rows = await db.selectFrom('bank_mappings').select('mapping').orderBy('bank_key').execute();
      return rows.map((row) => bankMappingSchema.parse(JSON.parse(row.mapping)));
    },

    async saveBankMapping(mapping, at) {
      const row = { bank_key: mapping.bank.toLowerCase(), mapping: JSON.stringify(mapping), updated_at: at };
      await db
        .insertInto('bank_mappings')
        .values(row)
        .onConflict((oc) => oc.column('bank_key').doUpdateSet({ mapping: row.mapping, updated_at: at }))
        .execute();
    },

    async insert(payment) {
      await db
        .insertInto('payments')
        .values({
          id: payment.id,
          kind: payment.kind,
          method: payment.method,
          amount_cents: payment.amountCents,
          paid_on: payment.paidOn,
          reference: payment.reference,
          note: payment.note,
          statement_line_key: payment.statementLineKey,
          recorded_by_id: payment.recordedBy.id,
          recorded_by_name: payment.recordedBy.name,
          recorded_at: payment.recordedAt,
          package_id: payment.packageId ?? null,
        })
        .execute();
      if (payment.allocations.length === 0) return;
      await db
        .insertInto('payment_allocations')
        .values(
          payment.allocations.map((a) => ({
            payment_id: payment.id,
            booking_id: a.bookingId,
            amount_cents: a.amountCents,
          })),
        )
        .execute();
    },

    async listForBookings(bookingIds) {
      if (bookingIds.length === 0) return [];
      const rows = await db
        .selectFrom('payments')
        .selectAll()
        .where(
          'id',
          'in',
          db.selectFrom('payment_allocations').select('payment_id').where('booking_id', 'in', bookingIds),
        )
        .orderBy('recorded_at')
        .orderBy('id')
        .execute();
      return withAllocations(rows);
    },

    async listForPackages(packageIds) {
      const rows: PaymentRow[] = [];
      for (const slice of slices(packageIds))
        rows.push(
          ...(await db
            .selectFrom('payments')
            .selectAll()
            .where('package_id', 'in', slice)
            .orderBy('recorded_at')
            .orderBy('id')
            .execute()),
        );
      rows.sort((a, b) => a.recorded_at.localeCompare(b.recorded_at) || a.id.localeCompare(b.id));
      return withAllocations(rows);
    },

    async listPaidBetween(from, to) {
      const rows = await db
        .selectFrom('payments')
        .selectAll()
        .where('paid_on', '>=', from)
        .where('paid_on', '<=', to)
        .orderBy('paid_on')
        .orderBy('id')
        .execute();
      return withAllocations(rows);
    },

    async setRecorderName(userId, name, forget) {
      await db
        .updateTable('payments')
        .set({ recorded_by_name: name, ...(forget ? { recorded_by_id: null } : {}) })
        .where('recorded_by_id', '=', userId)
        .execute();
      await db
        .updateTable('ignored_statement_lines')
        .set({ ignored_by_name: name, ...(forget ? { ignored_by_id: null } : {}) })
        .where('ignored_by_id', '=', userId)
        .execute();
    },
  };
}
