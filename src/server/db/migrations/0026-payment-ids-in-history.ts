import type { Kysely } from 'kysely';

/**
 * Receipts (issue 37 §4, docs/decisions/0055): a booking's history entry for money recorded names the payment
 * (`payment.id` in its JSON), so the student's device knows which receipts to offer. Entries written before this
 * get the id of the payment they record: the one that went to the same booking, of the same kind and amount,
 * recorded at the same instant (bookings.payments.ts writes the two with one time). No column changes. Frozen
 * once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const entries: { id: string; booking_id: string; at: string; payment: string }[] = await db
    .selectFrom('booking_changes')
    .select(['id', 'booking_id', 'at', 'payment'])
    .where('payment', 'is not', null)
    .orderBy('id')
    .execute();
  const taken = new Set<string>();
  for (const entry of entries) {
    const payment = JSON.parse(entry.payment) as { id?: string; kind: string; amountCents: number };
    if (payment.id) continue;
    const candidates: { id: string }[] = await db
      .selectFrom('payments')
      .innerJoin('payment_allocations', 'payment_allocations.payment_id', 'payments.id')
      .select('payments.id')
      .where('payment_allocations.booking_id', '=', entry.booking_id)
      .where('payments.recorded_at', '=', entry.at)
      .where('payments.kind', '=', payment.kind)
      .where('payment_allocations.amount_cents', '=', payment.amountCents)
      .orderBy('payments.id')
      .execute();
    const found = candidates.find((c) => !taken.has(c.id));
    if (!found) continue;
    taken.add(found.id);
    await db
      .updateTable('booking_changes')
      .set({ payment: JSON.stringify({ id: found.id, ...payment }) })
      .where('id', '=', entry.id)
      .execute();
  }
}
