import { profileMessages } from '../../../common/profile.ts';
import { createError } from '../../http/errors.ts';

/** Unknown module, or one the admin has deleted. */
export const createEnrolModuleNotFoundError = () =>
  createError({ code: 'profile.module_not_found', message: profileMessages.moduleGone, status: 404 });

export const createAlreadyEnrolledError = () =>
  createError({ code: 'profile.already_enrolled', message: profileMessages.alreadyEnrolled, status: 409 });

export const createEnrolmentNotFoundError = () =>
  createError({ code: 'profile.enrolment_not_found', message: 'You are not enrolled in this module.', status: 404 });
