import { availabilityApiMessages } from '../../../common/availability-api.ts';
import { createError } from '../../http/errors.ts';

/** The id names no account, or one that is not a tutor's (a student, the admin, a tutor no longer). */
export const createTutorNotFoundError = () =>
  createError({ code: 'availability.tutor_not_found', message: availabilityApiMessages.tutorNotFound, status: 404 });
