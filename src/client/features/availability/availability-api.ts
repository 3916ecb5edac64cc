import type { Availability } from '../../../common/availability.ts';
import type { CategoryAvailability, TutorAvailability } from '../../../common/availability-api.ts';
import type { Category } from '../../../common/roles.ts';
import { client } from '../../lib/api-client.ts';
import { readJson } from '../../lib/api.ts';

const availability = client.api.availability;
/** hc puts path parameters into the URL as they are. */
const tutor = (tutorId: string) => ({ param: { tutorId: encodeURIComponent(tutorId) } });

/** Every call the availability feature makes (docs/api.md, `/api/availability`), in one place. */
export const availabilityApi = {
  /** A tutor's own (or, for the admin, any tutor's) week, dates off and buffer. */
  get: async (tutorId: string, signal?: AbortSignal): Promise<TutorAvailability> =>
    readJson(await availability[':tutorId'].$get(tutor(tutorId), { init: { signal } })),
  /** A category's tutors with their hours (and busy times): the admin picks a tutor from them. */
  category: async (category: Category, signal?: AbortSignal): Promise<CategoryAvailability> =>
    readJson(await availability.$get({ query: { category } }, { init: { signal } })),
  /** Replaces it whole; the server's copy comes back. */
  put: async (tutorId: string, value: Availability): Promise<TutorAvailability> =>
    readJson(await availability[':tutorId'].$put({ ...tutor(tutorId), json: value })),
};
