import { Hono } from 'hono';
import {
  bookingListQuerySchema,
  confirmBookingInputSchema,
  createBookingInputSchema,
  dateRangeInOrder,
  bookingMessages,
  keepBookingTimeInputSchema,
  moveBookingInputSchema,
  rescheduleBookingInputSchema,
  setBookingStatusInputSchema,
} from '../../../common/bookings.ts';
import { paymentReminderInputSchema, recordPaymentInputSchema } from '../../../common/payments.ts';
import { statementImportInputSchema, statementPreviewInputSchema } from '../../../common/statements.ts';
import { figuresQuerySchema } from '../../../common/figures.ts';
import { positionSchema } from '../../../common/position-schema.ts';
import { z } from '../../../common/zod.ts';
import { checkFirst, type SessionEnv } from '../../auth/auth.middleware.ts';
import { requireRole, requireUser } from '../../auth/auth.session.ts';
import type { Deps } from '../../deps.ts';
import { findReminderProblems } from './bookings.reminder-check.ts';
import { answerJson, personal } from '../../http/etag.ts';
import { jsonBody, queryOf } from '../../http/json-body.ts';
import { offlineChanges } from '../../http/offline-changes.ts';
import { syncedTo } from '../../http/synced-to.ts';
import { listUnpaid, recordPayment, sendPaymentReminder } from './bookings.payments.ts';
import { paymentsCsv, readFigures } from './bookings.figures.ts';
import { importStatement, listBankMappings, previewStatement } from './bookings.statements.ts';
import { readReceipt } from './bookings.receipts.ts';
import { requireBookingStaff } from './bookings.access.ts';
import { postSessionSummary, setSummaryConsent, writeSessionNotes } from './bookings.session-notes.ts';
import {
  postSummaryInputSchema,
  sessionNotesInputSchema,
  summaryConsentInputSchema,
} from '../../../common/session-notes.ts';

const requireAdmin = (me: Parameters<typeof requireRole>[0]) => requireRole(me, 'admin');
import {
  cancelBooking,
  confirmBooking,
  createBooking,
  keepBookingTime,
  listBookingChanges,
  listBookings,
  moveBooking,
  readBookingsPosition,
  rescheduleBooking,
  setBookingStatus,
} from './bookings.usecases.ts';

/** `?since=` asks for changes; otherwise the filters and `?cursor=` ask for a page. */
const listQuerySchema = z
  .strictObject({
    ...bookingListQuerySchema.shape,
    cursor: z.string().max(500).optional(),
    since: positionSchema.optional(),
  })
  .refine(
    ({ since, ...page }) => since === undefined || Object.values(page).every((v) => v === undefined),
    'Ask for changes (since) or for a page (status, category, from, to, cursor), not both.',
  )
  .refine(dateRangeInOrder, { message: bookingMessages.dateRangeReversed, path: ['to'] });

/** `/api/bookings`. The usecases decide who sees and changes what; the checks here only come before the body. */
export function createBookingRoutes(deps: Deps) {
  // Before everything else: a request queued offline may be another account's, or refused before.
  const queued = offlineChanges(deps);
  return (
    new Hono<SessionEnv>()
      .use(syncedTo(() => readBookingsPosition(deps)))
      .get('/', checkFirst(requireUser), queryOf(listQuerySchema), async (c) => {
        c.header('cache-control', personal);
        const { since, ...page } = c.req.valid('query');
        if (since === undefined) return answerJson(c, await listBookings(deps, c.get('me'), page, c.get('readAt')));
        return answerJson(c, await listBookingChanges(deps, c.get('me'), since));
      })
      .post('/', queued, checkFirst(requireUser), jsonBody(createBookingInputSchema), async (c) => {
        const { booking, created } = await createBooking(deps, c.get('me'), c.req.valid('json'));
        return c.json(booking, created ? 201 : 200);
      })
      .post('/:id/confirm', checkFirst(requireBookingStaff), jsonBody(confirmBookingInputSchema), async (c) =>
        c.json(await confirmBooking(deps, c.get('me'), c.req.param('id'), c.req.valid('json'))),
      )
      .put('/:id/status', checkFirst(requireBookingStaff), jsonBody(setBookingStatusInputSchema), async (c) =>
        c.json(await setBookingStatus(deps, c.get('me'), c.req.param('id'), c.req.valid('json'))),
      )
      // After the session (issue 39 §4): the tutor's notes, the student's consent, the summary on the question.
      .put('/:id/notes', checkFirst(requireBookingStaff), jsonBody(sessionNotesInputSchema), async (c) =>
        c.json(await writeSessionNotes(deps, c.get('me'), c.req.param('id'), c.req.valid('json'))),
      )
      .put('/:id/summary-consent', checkFirst(requireUser), jsonBody(summaryConsentInputSchema), async (c) =>
        c.json(await setSummaryConsent(deps, c.get('me'), c.req.param('id'), c.req.valid('json'))),
      )
      .post('/:id/summary', checkFirst(requireBookingStaff), jsonBody(postSummaryInputSchema), async (c) =>
        c.json(await postSessionSummary(deps, c.get('me'), c.req.param('id'), c.req.valid('json'))),
      )
      .post('/:id/cancel', async (c) => c.json(await cancelBooking(deps, c.get('me'), c.req.param('id'))))
      // The student's move, queued offline as a request is (issue 36).
      .post('/:id/reschedule', queued, checkFirst(requireUser), jsonBody(rescheduleBookingInputSchema), async (c) =>
        c.json(await rescheduleBooking(deps, c.get('me'), c.req.param('id'), c.req.valid('json'))),
      )
      .post('/:id/move', checkFirst(requireBookingStaff), jsonBody(moveBookingInputSchema), async (c) =>
        c.json(await moveBooking(deps, c.get('me'), c.req.param('id'), c.req.valid('json'))),
      )
      // Sessions of the next day whose reminder did not reach the student (issue 38 §4): the staff's dashboards.
      .get('/reminder-problems', checkFirst(requireBookingStaff), async (c) => {
        c.header('cache-control', personal);
        return c.json(await findReminderProblems(deps, c.get('me')));
      })
      // Money (issue 37): every booking with money owing, oldest session first; a reminder to its student.
      .get('/unpaid', checkFirst(requireAdmin), async (c) => {
        c.header('cache-control', personal);
        return c.json(await listUnpaid(deps, c.get('me')));
      })
      // The figures (issue 37 §4): money in per week, unpaid per month, hours per tutor; the month's CSV.
      .get('/figures', checkFirst(requireAdmin), queryOf(figuresQuerySchema), async (c) => {
        c.header('cache-control', personal);
        return c.json(await readFigures(deps, c.get('me'), c.req.valid('query').month));
      })
      .get('/figures/payments.csv', checkFirst(requireAdmin), queryOf(figuresQuerySchema), async (c) => {
        const { month } = c.req.valid('query');
        return c.body(await paymentsCsv(deps, c.get('me'), month), 200, {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="payments-${month}.csv"`,
          'cache-control': personal,
        });
      })
      // Bank statements (issue 37 §2): each bank's columns as last mapped; a statement previewed, then recorded.
      .get('/bank-mappings', checkFirst(requireAdmin), async (c) => {
        c.header('cache-control', personal);
        return c.json({ mappings: await listBankMappings(deps, c.get('me')) });
      })
      .post('/statements/preview', checkFirst(requireAdmin), jsonBody(statementPreviewInputSchema), async (c) =>
        c.json(await previewStatement(deps, c.get('me'), c.req.valid('json'))),
      )
      .post('/statements/import', checkFirst(requireAdmin), jsonBody(statementImportInputSchema), async (c) =>
        c.json(await importStatement(deps, c.get('me'), c.req.valid('json'))),
      )
      .post('/:id/payment-reminder', checkFirst(requireAdmin), jsonBody(paymentReminderInputSchema), async (c) => {
        await sendPaymentReminder(deps, c.get('me'), c.req.param('id'), c.req.valid('json'));
        return c.json({ sent: true }, 202);
      })
      // Money recorded by the admin (issue 37): a payment, refund or waiver.
      .post('/:id/payments', checkFirst(requireAdmin), jsonBody(recordPaymentInputSchema), async (c) =>
        c.json(await recordPayment(deps, c.get('me'), c.req.param('id'), c.req.valid('json'))),
      )
      // A payment's receipt as a PDF (issue 37 §4): the booking's student or the admin.
      .get('/:id/receipts/:paymentId', checkFirst(requireUser), async (c) => {
        const { fileName, pdf } = await readReceipt(deps, c.get('me'), c.req.param('id'), c.req.param('paymentId'));
        return c.body(new Uint8Array(pdf), 200, {
          'content-type': 'application/pdf',
          'content-disposition': `attachment; filename="${fileName}"`,
          'cache-control': personal,
        });
      })
      .post('/:id/keep-time', checkFirst(requireBookingStaff), jsonBody(keepBookingTimeInputSchema), async (c) =>
        c.json(await keepBookingTime(deps, c.get('me'), c.req.param('id'), c.req.valid('json'))),
      )
  );
}
