import { photoLimits, qaMessages } from '../../../common/qa.ts';
import { createError } from '../../http/errors.ts';

/** A visitor's write, with the spec's own text for it (§5); the code is the one every 401 carries. */
export const createSignedOutError = (message: string) =>
  createError({ code: 'auth.unauthenticated', message, status: 401 });

/** Unknown, or deleted by the admin. */
export const createQuestionNotFoundError = () =>
  createError({ code: 'qa.not_found', message: qaMessages.notFound, status: 404 });

export const createAnswerNotFoundError = () =>
  createError({ code: 'qa.answer_not_found', message: qaMessages.answerNotFound, status: 404 });

/** A client id already used by another post, or by this one with other content. */
export const createIdReusedError = () =>
  createError({ code: 'qa.id_reused', message: qaMessages.idReused, status: 409 });

export const createRateLimitedError = () =>
  createError({ code: 'qa.rate_limited', message: qaMessages.rateLimited, status: 429 });

export const createNotAskerError = () =>
  createError({ code: 'qa.not_asker', message: qaMessages.acceptNotAsker, status: 403 });

export const createInvalidCursorError = () => {
  const message = 'This page of questions cannot be found. Please reload the board.';
  return createError({ code: 'request.invalid', message, status: 400, fields: { cursor: message } });
};

export const createTooManyPhotosError = () =>
  createError({
    code: 'qa.too_many_photos',
    message: qaMessages.tooManyPhotos(photoLimits.perPost),
    status: 400,
  });

export const createPhotoTooLargeError = () =>
  createError({ code: 'qa.photo_too_large', message: qaMessages.photoTooLarge, status: 413 });

/** The bytes are not a JPEG, PNG or WebP, whatever the name or type they came with. */
export const createPhotoTypeError = () =>
  createError({ code: 'qa.photo_type', message: qaMessages.photoType, status: 415 });

export const createPhotoNotFoundError = () =>
  createError({ code: 'qa.photo_not_found', message: qaMessages.photoNotFound, status: 404 });

/** Endorsing is for tutors and the admin (issue 39 §3). */
export const createNotStaffError = () =>
  createError({ code: 'qa.not_staff', message: qaMessages.endorseNotStaff, status: 403 });

/** A module the catalogue does not hold (deleted meanwhile, or made up). */
export const createUnknownModuleError = () =>
  createError({
    code: 'qa.unknown_module',
    message: qaMessages.unknownModule,
    status: 400,
    fields: { module: qaMessages.unknownModule },
  });
