import type { Selectable } from 'kysely';
import { packageOfferSchema } from '../../../common/packages.ts';
import type { Db } from '../../db/create-db.ts';
import type { PackageRecord, PackagesRepository } from './packages.storage.ts';
import type { PackagesTable } from './packages.table.ts';

type PackageRow = Selectable<PackagesTable>;

/** References asked for in one query: well under SQLite's and PostgreSQL's limits on parameters. */
const referencesPerQuery = 500;

const toRecord = (row: PackageRow): PackageRecord => ({
  id: row.id,
  offerId: row.offer_id,
  name: row.name,
  category: row.category,
  moduleName: row.module_name,
  minutes: row.minutes,
  usedMinutes: row.used_minutes,
  priceCents: row.price_cents,
  carryOver: Boolean(row.carry_over),
  lateCancel: row.late_cancel,
  student: { id: row.student_id, name: row.student_name, email: row.student_email },
  month: row.month,
  validUntil: row.valid_until,
  paymentReference: row.payment_reference,
  payments: { paidCents: row.paid_cents, refundedCents: row.refunded_cents, waivedCents: row.waived_cents },
  createdAt: row.created_at,
});

/** Monthly packages on SQLite and PostgreSQL: `package_offers` (JSON) and `packages`. */
export function createPackagesRepository(db: Db): PackagesRepository {
  const newestFirst = db.selectFrom('packages').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc');
  return {
    async listOffers() {
      const rows = await db.selectFrom('package_offers').select('offer').execute();
      return rows.map((row) => packageOfferSchema.parse(JSON.parse(row.offer)));
    },

    async findOffer(id) {
      const row = await db.selectFrom('package_offers').select('offer').where('id', '=', id).executeTakeFirst();
      return row && packageOfferSchema.parse(JSON.parse(row.offer));
    },

    async saveOffer(offer) {
      const offerJson = JSON.stringify(offer);
      await db
        .insertInto('package_offers')
        .values({ id: offer.id, offer: offerJson })
        .onConflict((oc) => oc.column('id').doUpdateSet({ offer: offerJson }))
        .execute();
    },

    async find(id) {
      const row = await db.selectFrom('packages').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toRecord(row);
    },

    async isReferenceTaken(reference) {
      const row = await db
        .selectFrom('packages')
        .select('id')
        .where('payment_reference', '=', reference)
        .executeTakeFirst();
      return row !== undefined;
    },

    async findByPaymentReferences(references) {
      const rows: PackageRow[] = [];
      for (let i = 0; i < references.length; i += referencesPerQuery) {
        const chunk = references.slice(i, i + referencesPerQuery);
        rows.push(...(await db.selectFrom('packages').selectAll().where('payment_reference', 'in', chunk).execute()));
      }
      return rows.map(toRecord);
    },

    async insert(pkg) {
      await db
        .insertInto('packages')
        .values({
          id: pkg.id,
          offer_id: pkg.offerId,
          name: pkg.name,
          category: pkg.category,
          module_name: pkg.moduleName,
          minutes: pkg.minutes,
          used_minutes: pkg.usedMinutes,
          price_cents: pkg.priceCents,
          carry_over: pkg.carryOver ? 1 : 0,
          late_cancel: pkg.lateCancel,
          student_id: pkg.student.id,
          student_name: pkg.student.name,
          student_email: pkg.student.email,
          month: pkg.month,
          valid_until: pkg.validUntil,
          payment_reference: pkg.paymentReference,
          paid_cents: pkg.payments.paidCents,
          refunded_cents: pkg.payments.refundedCents,
          waived_cents: pkg.payments.waivedCents,
          created_at: pkg.createdAt,
        })
        .execute();
    },

    async ofStudent(studentId) {
      return (await newestFirst.where('student_id', '=', studentId).execute()).map(toRecord);
    },

    async list(limit) {
      return (await newestFirst.limit(limit).execute()).map(toRecord);
    },

    async update(id, change) {
      await db
        .updateTable('packages')
        .set({
          ...(change.usedMinutes !== undefined ? { used_minutes: change.usedMinutes } : {}),
          ...(change.payments
            ? {
                paid_cents: change.payments.paidCents,
                refunded_cents: change.payments.refundedCents,
                waived_cents: change.payments.waivedCents,
              }
            : {}),
        })
        .where('id', '=', id)
        .execute();
    },

    async setStudent(userId, student, forget) {
      await db
        .updateTable('packages')
        .set({
          student_name: student.name,
          ...(student.email !== undefined ? { student_email: student.email } : {}),
          ...(forget ? { student_id: null } : {}),
        })
        .where('student_id', '=', userId)
        .execute();
    },
  };
}
