import { writeNotices } from '../../notices/notify.ts';
import { packagePaymentNotices } from './bookings.notices.ts';
import {
  buyableMonths,
  packageLimits,
  packageMessages,
  packageReference,
  packageStanding,
  validUntilOf,
  type BuyPackageInput,
  type Package,
  type PackageOffer,
  type PackageOfferInput,
} from '../../../common/packages.ts';
import { noPayments, paymentMessages, withShare, type PackagePaymentInput } from '../../../common/payments.ts';
import { receiptFileName } from '../../../common/receipts.ts';
import { sastDate } from '../../../common/sast.ts';
import type { Me } from '../../../common/session.ts';
import { requireRole, requireUser } from '../../auth/auth.session.ts';
import { withTransaction, type Uses } from '../../deps.ts';
import { createError } from '../../http/errors.ts';
import { requireRecordable } from './bookings.payments.ts';
import { newPaymentReference } from './bookings.usecases.ts';
import { packageReceiptEmail } from './bookings.emails.ts';
import { createReceiptNotFoundError, packageReceiptDocument } from './bookings.receipts.ts';
import { renderReceiptPdf } from '../../receipts/receipt-pdf.ts';
import type { PackageRecord } from './packages.storage.ts';
import type { PaymentRecord } from './payments.storage.ts';

/**
 * Monthly packages (issue 37 §3, docs/decisions/0054): the admin's offers, a student buying one for a month, and
 * the money recorded for it. The hours are drawn by the sessions' own changes (bookings.package-draws.ts). Buying
 * and paying are written in the bookings' change transaction (`beginChanges`: SQL's bookings lock), so they are
 * ordered with the draws.
 */

const notFound = () => createError({ code: 'packages.not_found', message: packageMessages.notFound, status: 404 });
const fieldError = (code: string, field: string, message: string) =>
  createError({ code: `packages.${code}`, message, status: 400, fields: { [field]: message } });

/** The offers: every one for the admin, those still offered for anyone else, by category, then name. */
export async function listOffers(deps: Uses<'packages'>, me: Me | undefined): Promise<{ offers: PackageOffer[] }> {
  const all = await deps.repos.packages.listOffers();
  const offers = me?.role === 'admin' ? all : all.filter((offer) => offer.active);
  offers.sort((a, b) => a.category.localeCompare(b.category) || a.hours - b.hours || a.name.localeCompare(b.name));
  return { offers };
}

/**
 * The admin adds an offer, or changes one (the same id). A module named must be the category's. A change reaches
 * only packages bought after it: each package keeps what it was bought as.
 */
export async function saveOffer(
  deps: Uses<'packages' | 'catalogue', 'clock'>,
  me: Me | undefined,
  input: PackageOfferInput,
): Promise<{ offer: PackageOffer; created: boolean }> {
  requireRole(me, 'admin');
  const moduleName = input.moduleName || null;
  if (moduleName) {
    const module = await deps.repos.catalogue.findByName(moduleName);
    if (module?.category !== input.category)
      throw fieldError('module_not_of_category', 'moduleName', packageMessages.moduleNotOfCategory);
  }
  const created = !(await deps.repos.packages.findOffer(input.id));
  const offer: PackageOffer = { ...input, moduleName, updatedAt: deps.clock.now().toISOString() };
  await deps.repos.packages.saveOffer(offer);
  return { offer, created };
}

/**
 * A student buys an offer for this month or the next (SAST), once per id (the device's): the package, with its
 * own reference, waits for its money; the same id sent again answers with it as it is now, its payments too.
 * Someone else's id is a 409.
 */
export async function buyPackage(
  deps: Uses<'bookings' | 'packages' | 'payments', 'storage' | 'clock'>,
  me: Me | undefined,
  input: BuyPackageInput,
): Promise<{ package: Package; created: boolean }> {
  const student = requireUser(me);
  const { pkg, created } = await withTransaction(
    deps,
    async (tx): Promise<{ pkg: PackageRecord; created: boolean }> => {
      const { bookings, packages } = tx.repos;
      await bookings.beginChanges();
      const stored = await packages.find(input.id);
      if (stored) {
        if (stored.student.id !== student.id || stored.offerId !== input.offerId || stored.month !== input.month)
          throw createError({ code: 'packages.id_reused', message: paymentMessages.idReused, status: 409 });
        return { pkg: stored, created: false };
      }
      const offer = await packages.findOffer(input.offerId);
      if (!offer?.active)
        throw createError({ code: 'packages.offer_not_found', message: packageMessages.offerNotFound, status: 404 });
      const now = tx.clock.now();
      if (!buyableMonths(sastDate(now)).includes(input.month))
        throw fieldError('month_invalid', 'month', packageMessages.monthInvalid);
      // A few waiting for their money at most: a package is a promise of hours, not a form to fill in again and again.
      const waiting = (await packages.ofStudent(student.id)).filter(
        (pkg) => packageStanding(pkg).owingCents > 0 && pkg.validUntil >= sastDate(now),
      );
      if (waiting.length >= packageLimits.waitingMax)
        throw createError({ code: 'packages.too_many_waiting', message: packageMessages.tooManyWaiting, status: 409 });
      let reference: string;
      do reference = packageReference(newPaymentReference().slice(3));
      while (await packages.isReferenceTaken(reference));
      const pkg: PackageRecord = {
        id: input.id,
        offerId: offer.id,
        name: offer.name,
        category: offer.category,
        moduleName: offer.moduleName,
        minutes: offer.hours * 60,
        usedMinutes: 0,
        priceCents: offer.priceCents,
        carryOver: offer.carryOver,
        lateCancel: offer.lateCancel,
        student: { id: student.id, name: student.name, email: student.email },
        month: input.month,
        validUntil: validUntilOf(input.month, offer.carryOver),
        paymentReference: reference,
        payments: noPayments,
        createdAt: now.toISOString(),
      };
      await packages.insert(pkg);
      return { pkg, created: true };
    },
  );
  // Sent again after it was paid (its first answer lost), it answers with its payments as the list does.
  return { package: (await withRecordedPayments(deps, [pkg]))[0]!, created };
}

/** The caller's packages, newest first; the admin's answer is every package (the newest 500). */
export async function listPackages(
  deps: Uses<'packages' | 'payments'>,
  me: Me | undefined,
): Promise<{ packages: Package[] }> {
  const user = requireUser(me);
  const packages =
    user.role === 'admin' ? await deps.repos.packages.list(500) : await deps.repos.packages.ofStudent(user.id);
  return { packages: await withRecordedPayments(deps, packages) };
}

/**
 * The admin records money for a package: a payment (by EFT or by hand), a refund (at most what was paid) or a
 * waiver (at most what is owing), as for a booking (bookings.payments.ts). The payment names the package and goes
 * to no booking. Sent again with the same id and details, it records nothing new.
 */
export async function recordPackagePayment(
  deps: Uses<'bookings' | 'packages' | 'payments' | 'notices', 'storage' | 'clock' | 'mail' | 'config' | 'events'>,
  me: Me | undefined,
  packageId: string,
  input: PackagePaymentInput,
): Promise<Package> {
  const admin = requireRole(me, 'admin');
  const pkg = await withTransaction(deps, async (tx): Promise<PackageRecord> => {
    const { bookings, packages, payments } = tx.repos;
    await bookings.beginChanges();
    const pkg = await packages.find(packageId);
    if (!pkg) throw notFound();
    const stored = await payments.find(input.id);
    if (stored) {
      const same =
        stored.packageId === packageId &&
        stored.kind === input.kind &&
        stored.amountCents === input.amountCents &&
        stored.paidOn === input.paidOn;
      if (same) return pkg;
      throw createError({ code: 'payments.id_reused', message: paymentMessages.idReused, status: 409 });
    }
    const now = tx.clock.now();
    requireRecordable(input, packageStanding(pkg), now);
    return writePackagePayment(tx, pkg, admin, now.toISOString(), {
      id: input.id,
      kind: input.kind,
      method: input.method ?? null,
      amountCents: input.amountCents,
      paidOn: input.paidOn,
      reference: input.kind === 'payment' ? pkg.paymentReference : '',
      note: input.note,
      statementLineKey: null,
    });
  });
  return (await withRecordedPayments(deps, [pkg]))[0]!;
}

/**
 * Money recorded for one package, in the change transaction the caller began (`beginChanges`, then its reads):
 * the payment's record (naming the package, allocated to no booking), the package's sums, and for a payment the
 * student's e-mail with its receipt, once per payment (0055; EmailJS carries no attachments). The admin's form, a
 * statement's lines and PayFast's notice all record through here. Returns the package as it is now.
 */
export async function writePackagePayment(
  tx: Uses<'packages' | 'payments' | 'notices', 'mail' | 'config' | 'clock' | 'events'>,
  pkg: PackageRecord,
  by: { id: string | null; name: string },
  at: string,
  payment: Omit<PaymentRecord, 'recordedBy' | 'recordedAt' | 'allocations' | 'packageId'>,
): Promise<PackageRecord> {
  const record: PaymentRecord = {
    ...payment,
    recordedBy: { id: by.id, name: by.name },
    recordedAt: at,
    allocations: [],
    packageId: pkg.id,
  };
  await tx.repos.payments.insert(record);
  const totals = withShare(pkg.payments, { kind: record.kind, amountCents: record.amountCents });
  await tx.repos.packages.update(pkg.id, { payments: totals });
  const paid = { ...pkg, payments: totals };
  if (record.kind === 'payment' && pkg.student.id) {
    const pdf = tx.config.emailJs ? undefined : await renderReceiptPdf(packageReceiptDocument(record, paid, tx.config));
    await tx.mail.enqueue(packageReceiptEmail(paid, record, { publicUrl: tx.config.publicUrl, pdf }));
    await writeNotices(tx, packagePaymentNotices(paid, record.amountCents), by.id ?? undefined);
  }
  return paid;
}

/** The packages with their payments, refunds and waivers (the payments' own records), read at once. */
async function withRecordedPayments(deps: Uses<'payments'>, pkgs: readonly PackageRecord[]): Promise<Package[]> {
  if (pkgs.length === 0) return [];
  const recorded = Map.groupBy(
    await deps.repos.payments.listForPackages(pkgs.map((pkg) => pkg.id)),
    (payment) => payment.packageId ?? '',
  );
  return pkgs.map((pkg) => ({
    ...pkg,
    recordedPayments: (recorded.get(pkg.id) ?? []).map(({ id, kind, amountCents, paidOn }) => ({
      id,
      kind,
      amountCents,
      paidOn,
    })),
  }));
}

/**
 * A package's payment's receipt as a PDF (`GET /api/packages/:id/receipts/:paymentId`), for the package's student
 * or the admin. Anyone else, a tutor too, is answered as for a package that does not exist (404): nobody else
 * sees a package, so there is nothing to tell them it is there. A refund, a waiver and another package's payment
 * have no receipt here (404).
 */
export async function readPackageReceipt(
  deps: Uses<'packages' | 'payments', 'config'>,
  me: Me | undefined,
  packageId: string,
  paymentId: string,
): Promise<{ fileName: string; pdf: Buffer }> {
  const user = requireUser(me);
  const pkg = await deps.repos.packages.find(packageId);
  if (!pkg || (user.role !== 'admin' && (pkg.student.id === null || pkg.student.id !== user.id))) throw notFound();
  const payment = await deps.repos.payments.find(paymentId);
  if (!payment || payment.kind !== 'payment' || payment.packageId !== packageId) throw createReceiptNotFoundError();
  const pdf = await renderReceiptPdf(packageReceiptDocument(payment, pkg, deps.config));
  return { fileName: receiptFileName(payment.id), pdf };
}
