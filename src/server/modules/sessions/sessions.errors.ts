import { sessionMessages } from '../../../common/session-notes.ts';
import { createError } from '../../http/errors.ts';

/** No such question on the board (or deleted, or its asker's account gone: nobody to offer a session to). */
export const createQuestionNotFoundError = () =>
  createError({ code: 'sessions.question_not_found', message: 'This question no longer exists.', status: 404 });

/** A tutor's own question: a session is offered to someone else. */
export const createOwnQuestionError = () =>
  createError({ code: 'sessions.own_question', message: sessionMessages.offerOwnQuestion, status: 409 });

/** A student (or anyone not staff) offering a session. */
export const createNotStaffError = () =>
  createError({ code: 'sessions.staff_only', message: sessionMessages.offerStudentOnly, status: 403 });

/** A tutor offering a session on a question about a module of another subject: its tutors run that booking. */
export const createOtherSubjectError = () =>
  createError({ code: 'sessions.other_subject', message: sessionMessages.offerOtherSubject, status: 403 });
