import { formatMonth, packageStanding } from '../../../common/packages.ts';
import {
  payFastMessages,
  payFastReturnParam,
  payFastTargets,
  type PayFastCheckout,
  type PayFastCheckoutInput,
  type PayFastTarget,
} from '../../../common/payfast.ts';
import { bookingStanding } from '../../../common/payments.ts';
import { formatSastDate, sastDate } from '../../../common/sast.ts';
import type { Me } from '../../../common/session.ts';
import { requireUser } from '../../auth/auth.session.ts';
import { withTransaction, type Uses } from '../../deps.ts';
import { createError } from '../../http/errors.ts';
import {
  centsOf,
  isSignedBy,
  payFastAmount,
  signedCheckout,
  type PayFastNotice,
  type PayFastSettings,
} from '../../payfast/payfast.ts';
import { writePackagePayment } from './bookings.packages.ts';
import { writePayment } from './bookings.payments.ts';
import type { Actor } from './bookings.records.ts';

/**
 * Paying online through PayFast (issue 37 §4, docs/decisions/0058). A student asks for a checkout of what they owe
 * on a booking or a package, and is sent to PayFast with it; PayFast's payment notice records the payment, once,
 * through the same writes as the admin's form and the bank statement's lines.
 */

const refused = (code: string, message: string, status: 400 | 403 | 404 | 409 = 400) =>
  createError({ code: `payfast.${code}`, message, status });

function requireSettings(config: { payfast?: PayFastSettings }): PayFastSettings {
  if (!config.payfast) throw refused('not_configured', payFastMessages.notConfigured, 404);
  return config.payfast;
}

/** PayFast's item name: at most 100 characters. */
const itemName = (text: string) => (text.length > 100 ? `${text.slice(0, 99)}…` : text);

/**
 * The signed form for PayFast's payment page, for what the signed-in student owes now on one of their bookings
 * (the session, or its late fee) or packages. 404 when PayFast is not configured, or the thing is not theirs
 * (nobody learns that someone else's exists); 409 when nothing is owing. The amount asked rides along signed
 * (`custom_int1`), so that the notice can be held to it.
 */
export async function startPayFastCheckout(
  deps: Uses<'bookings' | 'packages', 'config'>,
  me: Me | undefined,
  input: PayFastCheckoutInput,
): Promise<PayFastCheckout> {
  const student = requireUser(me);
  const settings = requireSettings(deps.config);
  const notFound = () => refused('not_found', payFastMessages.notFound, 404);
  let owed: { cents: number; reference: string; item: string };
  if (input.for === 'booking') {
    const row = await deps.repos.bookings.findById(input.id);
    if (!row || row.student.id !== student.id) throw notFound();
    const standing = bookingStanding(row);
    const when = `${formatSastDate(row.date)}${row.confirmedSlot ? `, ${row.confirmedSlot} SAST` : ''}`;
    owed = {
      cents: standing.owingCents,
      reference: standing.due.reference,
      item: `${standing.due.what === 'late-fee' ? 'Late-cancellation fee: ' : ''}${row.moduleName}, ${when}`,
    };
  } else {
    const pkg = await deps.repos.packages.find(input.id);
    if (!pkg || pkg.student.id !== student.id) throw notFound();
    owed = {
      cents: packageStanding(pkg).owingCents,
      reference: pkg.paymentReference,
      item: `${pkg.name}, ${formatMonth(pkg.month)}`,
    };
  }
  if (owed.cents <= 0) throw refused('nothing_owing', payFastMessages.nothingOwing, 409);
  const [first = student.name, ...rest] = student.name.split(/\s+/);
  const back = (how: 'paid' | 'cancelled') => `${deps.config.publicUrl}/student-dashboard?${payFastReturnParam}=${how}`;
  const form = signedCheckout(settings, {
    return_url: back('paid'),
    cancel_url: back('cancelled'),
    notify_url: `${deps.config.publicUrl}/api/payfast/notify`,
    name_first: first.slice(0, 100),
    name_last: rest.join(' ').slice(0, 100),
    email_address: student.email,
    m_payment_id: owed.reference,
    amount: payFastAmount(owed.cents),
    item_name: itemName(owed.item),
    custom_int1: String(owed.cents),
    custom_str1: input.for,
    custom_str2: input.id,
  });
  return { url: form.url, amountCents: owed.cents };
}

/** What became of a notice that passed its checks. */
export type NoticeOutcome = 'recorded' | 'already-recorded' | 'not-complete';

/** The checks of a notice that reach beyond this server: where it came from, and PayFast's own word on it. */
export interface NoticeChecks {
  /** Whether it came from one of PayFast's addresses. */
  fromPayFast(): Promise<boolean>;
  /** Whether PayFast, asked with the signed fields, says it sent them (`VALID`). */
  confirmedByPayFast(): Promise<boolean>;
}

/**
 * PayFast's payment notice (`POST /api/payfast/notify`), checked in PayFast's documented order, the cheap checks
 * first: the signature with the passphrase; the merchant; the address it came from; its data (a payment id, the
 * thing it pays, and the amount paid exactly what was asked); then PayFast's confirmation. A notice failing any
 * is refused (4xx) and changes nothing. A complete payment is then recorded once, whatever the number of times
 * PayFast sends it (it repeats until it gets a 200): its record's id is PayFast's payment id, looked for in the
 * same transaction (the bookings' change lock on SQL; on Firestore the transaction's read of it). A payment that
 * arrives after the thing was paid another way is still recorded (the money came), as paid beyond what is due.
 */
export async function acceptPayFastNotice(
  deps: Uses<'bookings' | 'packages' | 'payments' | 'notices', 'storage' | 'events' | 'clock' | 'mail' | 'config'>,
  notice: PayFastNotice,
  checks: NoticeChecks,
): Promise<NoticeOutcome> {
  const settings = requireSettings(deps.config);
  if (!isSignedBy(notice, settings.passphrase)) throw refused('bad_signature', 'The notice is not signed by PayFast.');
  const field = (name: string) => notice.fields.get(name) ?? '';
  if (field('merchant_id') !== settings.merchantId)
    throw refused('wrong_merchant', 'The notice is for another merchant.');
  if (!(await checks.fromPayFast())) throw refused('bad_source', 'The notice did not come from PayFast.', 403);
  const paymentId = field('pf_payment_id');
  const target = field('custom_str1') as PayFastTarget;
  const targetId = field('custom_str2');
  const asked = /^\d{1,9}$/.test(field('custom_int1')) ? Number(field('custom_int1')) : undefined;
  const paid = centsOf(field('amount_gross'));
  if (!/^\d{1,20}$/.test(paymentId) || !payFastTargets.includes(target) || !targetId || asked === undefined)
    throw refused('bad_notice', 'The notice does not say what it pays.');
  if (paid !== asked) throw refused('amount_mismatch', 'The amount paid is not the amount asked.');
  if (!(await checks.confirmedByPayFast())) throw refused('not_confirmed', 'PayFast did not confirm the notice.');
  if (field('payment_status') !== 'COMPLETE') return 'not-complete';

  return withTransaction(deps, async (tx): Promise<NoticeOutcome> => {
    const { bookings, packages, payments } = tx.repos;
    await bookings.beginChanges();
    const id = `payfast-${paymentId}`;
    if (await payments.find(id)) return 'already-recorded';
    const now = tx.clock.now();
    const payment = {
      id,
      kind: 'payment' as const,
      method: 'payfast' as const,
      amountCents: paid,
      paidOn: sastDate(now),
      reference: field('m_payment_id').slice(0, 40),
      note: `PayFast payment ${paymentId}`,
      statementLineKey: null,
    };
    // The student paid: the history says so, in their name.
    const payer = (student: { id: string | null; name: string }): Actor => ({
      id: student.id,
      name: student.name,
      role: student.id ? 'student' : null,
    });
    if (target === 'booking') {
      const row = await bookings.findById(targetId);
      if (!row) throw refused('unknown_target', 'The notice pays for nothing that exists.');
      await writePayment(tx, row, payer(row.student), now.toISOString(), payment);
    } else {
      const pkg = await packages.find(targetId);
      if (!pkg) throw refused('unknown_target', 'The notice pays for nothing that exists.');
      await writePackagePayment(tx, pkg, payer(pkg.student), now.toISOString(), payment);
    }
    return 'recorded';
  });
}
