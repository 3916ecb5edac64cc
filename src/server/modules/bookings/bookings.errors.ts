import { bookingMessages } from '../../../common/bookings.ts';
import { createError } from '../../http/errors.ts';

/** Unknown, or not one the caller may see (the answer does not tell which). */
export const createBookingNotFoundError = () =>
  createError({ code: 'bookings.not_found', message: bookingMessages.notFound, status: 404 });

/** A client id already used by another booking, or by this one with other details. */
export const createIdReusedError = () =>
  createError({ code: 'bookings.id_reused', message: bookingMessages.idReused, status: 409 });

/** The booking changed since the caller read the version it sent. */
export const createChangedMeanwhileError = () =>
  createError({ code: 'bookings.changed', message: bookingMessages.changedMeanwhile, status: 409 });

export const createCannotCancelError = () =>
  createError({ code: 'bookings.cannot_cancel', message: bookingMessages.cannotCancel, status: 409 });

export const createRateLimitedError = () =>
  createError({ code: 'bookings.rate_limited', message: bookingMessages.rateLimited, status: 429 });

export const createTooSoonError = (hours: number) => {
  const message = bookingMessages.leadTime(hours);
  return createError({ code: 'bookings.too_soon', message, status: 400, fields: { date: message } });
};

export const createSlotNotRequestedError = () =>
  createError({
    code: 'bookings.slot_not_requested',
    message: bookingMessages.slotNotRequested,
    status: 400,
    fields: { slot: bookingMessages.slotNotRequested },
  });

export const createInvalidCursorError = () => {
  const message = 'This page of bookings cannot be found. Please reload the list.';
  return createError({ code: 'request.invalid', message, status: 400, fields: { cursor: message } });
};
