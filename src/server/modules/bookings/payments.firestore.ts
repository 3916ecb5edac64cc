import type { CollectionReference, Firestore, Query } from 'firebase-admin/firestore';
import type { PaymentKind, PaymentMethod } from '../../../common/payments.ts';
import { bankMappingSchema, type BankMapping } from '../../../common/statements.ts';
import { keyId } from '../../storage/firestore/document-ids.ts';
import { atomically, read, readAll, transact, type FirestoreContext } from '../../storage/firestore/context.ts';
import { isRecordId } from '../../storage/record-ids.ts';
import type { IgnoredStatementLine, PaymentAllocation, PaymentRecord, PaymentsRepository } from './payments.storage.ts';

/**
 * Payments on Firestore (docs/firestore-layout.md): `payments/{id}`, what it went to inside (`allocations`) and
 * the bookings' ids again as an array to find a booking's payments by (`bookingIds`, array-contains-any). A
 * statement line recorded is a document of its own, `paymentStatementLines/{key}`, created with the payment:
 * of two imports of the same line at once, the second's create fails, so the line is recorded once. A line the
 * admin ignored is `ignoredStatementLines/{key}`, with who ignored it and when.
 */
interface PaymentDoc {
  kind: PaymentKind;
  method: PaymentMethod | null;
  amountCents: number;
  paidOn: string;
  reference: string;
  note: string;
  statementLineKey: string | null;
  recordedById: string | null;
  recordedByName: string;
  recordedAt: string;
  allocations: PaymentAllocation[];
  bookingIds: string[];
  /** The package it pays; absent or null for a payment to bookings. */
  packageId?: string | null;
}

interface StatementLineDoc {
  paymentId: string;
}

interface IgnoredLineDoc {
  ignoredById: string | null;
  ignoredByName: string;
  ignoredAt: string;
}

const toRecord = (id: string, doc: PaymentDoc): PaymentRecord => ({
  id,
  kind: doc.kind,
  method: doc.method,
  amountCents: doc.amountCents,
  paidOn: doc.paidOn,
  reference: doc.reference,
  note: doc.note,
  statementLineKey: doc.statementLineKey,
  recordedBy: { id: doc.recordedById, name: doc.recordedByName },
  recordedAt: doc.recordedAt,
  allocations: doc.allocations.map((a) => ({ ...a })).sort((a, b) => a.bookingId.localeCompare(b.bookingId)),
  ...(doc.packageId ? { packageId: doc.packageId } : {}),
});

/** `bankMappings/{bank lower-cased, as a key}`: how that bank's statement is read. */
interface BankMappingDoc {
  bankKey: string;
  mapping: BankMapping;
  updatedAt: string;
}

/** Documents read in one round trip by `recordedStatementLines` and `ignoredStatementLines`. */
const docsPerRead = 300;

/** Firestore's most values an `in` or `array-contains-any` takes. */
const inLimit = 30;

export function createPaymentsFirestoreRepository(ctx: FirestoreContext): PaymentsRepository {
  const payments = ctx.db.collection('payments') as CollectionReference<PaymentDoc>;
  const statementLines = ctx.db.collection('paymentStatementLines') as CollectionReference<StatementLineDoc>;
  const bankMappings = ctx.db.collection('bankMappings') as CollectionReference<BankMappingDoc>;
  const ignoredLines = ctx.db.collection('ignoredStatementLines') as CollectionReference<IgnoredLineDoc>;
  const query = async <T>(q: Query<T>) => (ctx.tx ? await ctx.tx.get(q) : await q.get()).docs;

  /** The documents of these keys that exist, read `docsPerRead` at a time (a key no document can have: none). */
  async function existing<T>(collection: CollectionReference<T>, keys: readonly string[]) {
    const valid = keys.filter(isRecordId);
    const found = [];
    for (let i = 0; i < valid.length; i += docsPerRead) {
      const docs = await readAll(
        ctx,
        valid.slice(i, i + docsPerRead).map((key) => collection.doc(key)),
      );
      found.push(...docs.filter((doc) => doc.exists));
    }
    return found;
  }

  async function find(id: string) {
    if (!isRecordId(id)) return undefined;
    const doc = (await read(ctx, payments.doc(id))).data();
    return doc && toRecord(id, doc);
  }

  return {
    find,

    async findByStatementLine(key) {
      if (!isRecordId(key)) return undefined;
      const line = (await read(ctx, statementLines.doc(key))).data();
      return line && find(line.paymentId);
    },

    async recordedStatementLines(keys) {
      return new Set((await existing(statementLines, keys)).map((doc) => doc.id));
    },

    async ignoredStatementLines(keys) {
      const found = new Map<string, IgnoredStatementLine>();
      for (const doc of await existing(ignoredLines, keys)) {
        const { ignoredById, ignoredByName, ignoredAt } = doc.data()!;
        found.set(doc.id, { key: doc.id, ignoredBy: { id: ignoredById, name: ignoredByName }, ignoredAt });
      }
      return found;
    },

    async ignoreStatementLines(lines) {
      if (lines.length === 0) return;
      // Read first, so that a line ignored before keeps who and when: in the usecase's transaction, or one of its own.
      await atomically(ctx, async (inner) => {
        const scoped = createPaymentsFirestoreRepository(inner);
        const before = await scoped.ignoredStatementLines(lines.map((line) => line.key));
        for (const line of lines)
          if (!before.has(line.key))
            inner.tx.create(ignoredLines.doc(line.key), {
              ignoredById: line.ignoredBy.id,
              ignoredByName: line.ignoredBy.name,
              ignoredAt: line.ignoredAt,
            });
      });
    },

    async unignoreStatementLines(keys) {
      const refs = keys.filter(isRecordId).map((key) => ignoredLines.doc(key));
      if (ctx.tx) for (const ref of refs) ctx.tx.delete(ref);
      else
        for (let i = 0; i < refs.length; i += docsPerRead) {
          const batch = ctx.db.batch();
          for (const ref of refs.slice(i, i + docsPerRead)) batch.delete(ref);
          await batch.commit();
        }
    },

    async listBankMappings() {
      const docs = await query(bankMappings.orderBy('bankKey'));
      return docs.map((doc) => bankMappingSchema.parse(doc.data().mapping));
    },

    async saveBankMapping(mapping, at) {
      const bankKey = mapping.bank.toLowerCase();
      const doc = { bankKey, mapping, updatedAt: at };
      const ref = bankMappings.doc(keyId(bankKey));
      if (ctx.tx) ctx.tx.set(ref, doc);
      else await ref.set(doc);
    },

    async insert(payment) {
      const doc: PaymentDoc = {
        kind: payment.kind,
        method: payment.method,
        amountCents: payment.amountCents,
        paidOn: payment.paidOn,
        reference: payment.reference,
        note: payment.note,
        statementLineKey: payment.statementLineKey,
        recordedById: payment.recordedBy.id,
        recordedByName: payment.recordedBy.name,
        recordedAt: payment.recordedAt,
        allocations: payment.allocations.map((a) => ({ ...a })),
        bookingIds: payment.allocations.map((a) => a.bookingId),
        ...(payment.packageId ? { packageId: payment.packageId } : {}),
      };
      const key = payment.statementLineKey;
      if (ctx.tx) {
        ctx.tx.create(payments.doc(payment.id), doc);
        if (key) ctx.tx.create(statementLines.doc(key), { paymentId: payment.id });
        return;
      }
      const batch = ctx.db.batch();
      batch.create(payments.doc(payment.id), doc);
      if (key) batch.create(statementLines.doc(key), { paymentId: payment.id });
      await batch.commit();
    },

    async listForBookings(bookingIds) {
      const chunks = Array.from({ length: Math.ceil(bookingIds.length / inLimit) }, (_, i) =>
        bookingIds.slice(i * inLimit, (i + 1) * inLimit),
      );
      const docs = (
        await Promise.all(chunks.map((ids) => query(payments.where('bookingIds', 'array-contains-any', ids))))
      ).flat();
      const byId = new Map(docs.map((doc) => [doc.id, toRecord(doc.id, doc.data())]));
      return [...byId.values()].sort((a, b) => a.recordedAt.localeCompare(b.recordedAt) || a.id.localeCompare(b.id));
    },

    async listForPackages(packageIds) {
      const chunks = Array.from({ length: Math.ceil(packageIds.length / inLimit) }, (_, i) =>
        packageIds.slice(i * inLimit, (i + 1) * inLimit),
      );
      const docs = (await Promise.all(chunks.map((ids) => query(payments.where('packageId', 'in', ids))))).flat();
      return docs
        .map((doc) => toRecord(doc.id, doc.data()))
        .sort((a, b) => a.recordedAt.localeCompare(b.recordedAt) || a.id.localeCompare(b.id));
    },

    async listPaidBetween(from, to) {
      const docs = await query(payments.where('paidOn', '>=', from).where('paidOn', '<=', to).orderBy('paidOn'));
      return docs
        .map((doc) => toRecord(doc.id, doc.data()))
        .sort((a, b) => a.paidOn.localeCompare(b.paidOn) || a.id.localeCompare(b.id));
    },

    async setRecorderName(userId, name, forget) {
      const recorded = await query(payments.where('recordedById', '==', userId));
      const ignored = await query(ignoredLines.where('ignoredById', '==', userId));
      const change = { recordedByName: name, ...(forget ? { recordedById: null } : {}) };
      const ignoredChange = { ignoredByName: name, ...(forget ? { ignoredById: null } : {}) };
      if (ctx.tx) {
        for (const doc of recorded) ctx.tx.update(doc.ref, change);
        for (const doc of ignored) ctx.tx.update(doc.ref, ignoredChange);
      } else
        await Promise.all([
          ...recorded.map((doc) => doc.ref.update(change)),
          ...ignored.map((doc) => doc.ref.update(ignoredChange)),
        ]);
    },
  };
}

/** Marks a database whose bookings' history names its payments (below). */
const paymentIdsMarker = 'setup/payment-ids-in-history';

/**
 * What SQL's migration 0026 does, for Firestore (docs/decisions/0055): each history entry of money recorded
 * before receipts gets the id of the payment it records, so the student's card offers its receipt. The payment
 * is the one that went to the same booking, of the same kind and amount, recorded at the entry's time (the two
 * are written with one time). Once, marked; each booking in a transaction of its own, so a payment recorded
 * meanwhile, or two processes starting at once, lose nothing (a rival's write runs the transaction again).
 */
export async function namePaymentsInHistory(firestore: Firestore): Promise<void> {
  const marker = firestore.doc(paymentIdsMarker);
  if ((await marker.get()).exists) return;
  const docs = (await (firestore.collection('payments') as CollectionReference<PaymentDoc>).get()).docs;
  const byBooking = new Map<string, { id: string; kind: PaymentKind; amountCents: number; at: string }[]>();
  for (const doc of docs) {
    const { kind, recordedAt, allocations } = doc.data();
    for (const a of allocations) {
      const list = byBooking.get(a.bookingId) ?? [];
      list.push({ id: doc.id, kind, amountCents: a.amountCents, at: recordedAt });
      byBooking.set(a.bookingId, list);
    }
  }
  type Entry = { at: string; payment?: { id?: string; kind: PaymentKind; amountCents: number } };
  for (const [bookingId, payments] of byBooking) {
    const ref = firestore.collection('bookings').doc(bookingId);
    await transact(firestore, async (tx) => {
      const history = (await tx.get(ref)).get('history') as Entry[] | undefined;
      if (!history) return;
      const taken = new Set(history.flatMap((e) => (e.payment?.id ? [e.payment.id] : [])));
      let changed = false;
      const named = history.map((entry) => {
        if (!entry.payment || entry.payment.id) return entry;
        const { kind, amountCents } = entry.payment;
        const found = payments.find(
          (p) => !taken.has(p.id) && p.at === entry.at && p.kind === kind && p.amountCents === amountCents,
        );
        if (!found) return entry;
        taken.add(found.id);
        changed = true;
        return { ...entry, payment: { id: found.id, ...entry.payment } };
      });
      if (changed) tx.update(ref, { history: named });
    });
  }
  await marker.set({ doneAt: new Date().toISOString() });
}
