import { bookingMessages } from '../../../common/bookings.ts';
import { groupMessages } from '../../../common/groups.ts';
import { sessionMessages } from '../../../common/session-notes.ts';
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

/** `message` names the times too soon and the earliest accepted (`leadTimeProblem`); `field` is the one it marks. */
export const createTooSoonError = (message: string, field: 'date' | 'slots') =>
  createError({ code: 'bookings.too_soon', message, status: 400, fields: { [field]: message } });

/** `latest`: the last bookable date, `YYYY-MM-DD`. */
export const createTooFarError = (latest: string) => {
  const message = bookingMessages.tooFar(latest);
  return createError({ code: 'bookings.too_far', message, status: 400, fields: { date: message } });
};

export const createCannotConfirmError = () =>
  createError({ code: 'bookings.cannot_confirm', message: bookingMessages.cannotConfirm, status: 409 });

/** The admin named someone who is not a tutor of the booking's category. */
export const createNotATutorError = () =>
  createError({
    code: 'bookings.not_a_tutor',
    message: bookingMessages.notATutor,
    status: 400,
    fields: { tutorId: bookingMessages.notATutor },
  });

/** The tutor has another confirmed session then: `message` names it (`clashMessage`, common/availability.ts). */
export const createClashError = (message: string) =>
  createError({ code: 'bookings.clash', message, status: 409, fields: { slot: message } });

/** A tutor's own booking: they are its student here, not its tutor. */
export const createOwnBookingError = () =>
  createError({ code: 'bookings.own_booking', message: bookingMessages.ownBooking, status: 403 });

/** Completed for a session still to come, without saying so (`beforeStart`): `when` is its start. */
export const createNotStartedError = (when: string) =>
  createError({ code: 'bookings.not_started', message: bookingMessages.notStartedYet(when), status: 409 });

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

/** Moving (issue 36): a cancelled or completed session; staff and a pending one (they confirm a time instead). */
export const createCannotMoveError = (message: string = bookingMessages.cannotMove) =>
  createError({ code: 'bookings.cannot_move', message, status: 409 });

/** The student moves a session later than the reschedule cut-off: `when` it starts, as the pages write it. */
export const createTooLateToMoveError = (hours: number, when: string) =>
  createError({ code: 'bookings.too_late_to_move', message: bookingMessages.tooLateToMove(hours, when), status: 409 });

/** Staff move a session to a time already past. */
export const createMoveInPastError = () =>
  createError({
    code: 'bookings.move_in_past',
    message: bookingMessages.moveInPast,
    status: 400,
    fields: { slot: bookingMessages.moveInPast },
  });

/** Keep the old time of a booking the student did not move from a confirmed time. */
export const createNothingToKeepError = () =>
  createError({ code: 'bookings.nothing_to_keep', message: bookingMessages.nothingToKeep, status: 409 });

// Group sessions (issue 36, bookings.groups.ts)
export const createGroupNotFoundError = () =>
  createError({ code: 'groups.not_found', message: groupMessages.notFound, status: 404 });

export const createGroupFullError = () =>
  createError({ code: 'groups.full', message: groupMessages.full, status: 409 });

export const createAlreadySeatedError = () =>
  createError({ code: 'groups.already_seated', message: groupMessages.alreadySeated, status: 409 });

export const createGroupStartedError = () =>
  createError({ code: 'groups.started', message: groupMessages.started, status: 409 });

/** A seat keeps its group's time: it is not moved on its own. */
export const createSeatNotMovedError = () =>
  createError({ code: 'groups.seat_not_moved', message: groupMessages.seatNotMoved, status: 409 });

/** A tutor opening a group for a module outside their categories, or a module the catalogue does not know. */
export const createNotOfCategoryError = () =>
  createError({
    code: 'groups.not_of_category',
    message: groupMessages.notOfCategory,
    status: 400,
    fields: { module: groupMessages.notOfCategory },
  });

/** A group id already used by another group, or by this one with other details. */
export const createGroupIdReusedError = () =>
  createError({ code: 'groups.id_reused', message: bookingMessages.idReused, status: 409 });

/** A booking request linked to a question that is not the student's own, or no longer there (issue 39 §4). */
export const createQuestionNotYoursError = () =>
  createError({
    code: 'bookings.question_not_yours',
    message: sessionMessages.questionNotYours,
    status: 400,
    fields: { questionId: sessionMessages.questionNotYours },
  });

/** Notes before the session is Completed. */
export const createNotesBeforeCompletedError = () =>
  createError({ code: 'bookings.notes_before_completed', message: sessionMessages.notesBeforeCompleted, status: 409 });

/** Consent asked of a booking with no notes or no question. */
export const createNothingToConsentToError = () =>
  createError({
    code: 'bookings.nothing_to_consent_to',
    message: sessionMessages.consentNeedsNotesAndQuestion,
    status: 409,
  });

export const createNoQuestionError = () =>
  createError({ code: 'bookings.no_question', message: sessionMessages.noQuestion, status: 409 });

export const createNoNotesError = () =>
  createError({ code: 'bookings.no_notes', message: sessionMessages.noNotes, status: 409 });

/** A summary without the student's consent: refused, whoever asks. */
export const createNoConsentError = () =>
  createError({ code: 'bookings.no_consent', message: sessionMessages.noConsent, status: 409 });

export const createQuestionGoneError = () =>
  createError({ code: 'bookings.question_gone', message: sessionMessages.questionGone, status: 409 });
