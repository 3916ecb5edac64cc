import { z } from './zod.ts';

/** Spec §8 Profile, word for word, plus what the spec leaves open. */
export const profileMessages = {
  loadFailed: 'Failed to load profile data.',
  deleted: 'Your account has been deleted.',
  deleteFailed: 'Failed to delete account. Please log in again.',
  enrolled: (module: string) => `Enrolled in "${module}" successfully.`,
  enrolFailed: 'Failed to enroll. Try again later.',
  removed: (module: string) => `Module "${module}" removed successfully.`,
  removeFailed: 'Failed to remove module.',
  selectModule: 'Please select a module to enroll.',
  enrolConfirm: (module: string) => `Enroll in "${module}"?`,
  removeConfirm: (module: string) => `Remove "${module}" from your modules?`,
  deleteConfirm:
    'Delete your account? Your login, enrolments and personal details are removed for good; your questions and answers stay as "Deleted user". Download your data first if you want a copy.',
  offline: 'You are offline. Connect to the internet to change your enrolments or account.',
  alreadyEnrolled: 'You are already enrolled in this module.',
  moduleGone: 'This module is no longer offered.',
  nameChanged: 'Your name has been changed.',
  passwordChanged: 'Your password has been changed. Any other device you were logged in on is logged out.',
  downloadFailed: 'Failed to download your data. Please try again.',
} as const;

/** One enrolment: a row (user, module). The name is kept so it stays readable if the module is deleted. */
export const enrolmentSchema = z.object({
  id: z.string(),
  moduleId: z.string().nullable(),
  moduleName: z.string(),
  moduleSlug: z.string().nullable(),
  enrolledAt: z.string(),
});
export type Enrolment = z.infer<typeof enrolmentSchema>;

/** `POST /api/me/enrolments`. */
export const enrolInputSchema = z.strictObject({
  moduleId: z.uuid(profileMessages.selectModule),
});
export type EnrolInput = z.input<typeof enrolInputSchema>;
