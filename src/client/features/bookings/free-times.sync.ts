import type { CategoryAvailability } from '../../../common/availability-api.ts';
import { categories, type Category } from '../../../common/roles.ts';
import { defineLocalTable } from '../../offline/db.ts';
import { client } from '../../lib/api-client.ts';
import { ifNoneMatch, readRevalidated } from '../../lib/revalidated.ts';
import { defineSource, type Source } from '../../offline/engine.ts';

/**
 * Each category's tutors, their hours and when they are taken (issue 36), kept on the device: the booking page
 * works out the free times from them (`freeTimes`, common/availability.ts), offline too, and the staff's cards
 * the buffer a clash keeps. The user's own: a log-out clears them.
 */
export interface CategoryTimesRow extends CategoryAvailability {
  category: Category;
}

export const categoryTimesTable = defineLocalTable<CategoryTimesRow>({
  name: 'categoryTimes',
  schema: 'category',
  version: 1,
  scope: 'user',
});

/**
 * One source per category, read when a page shows it (`onDemand`): a student booking a statistics module has no
 * use for the other categories' times, nor for any at each start of the app. A tutor's saved hours reach every
 * device that holds them (the `availability` notice).
 */
export const categoryTimesSources = Object.fromEntries(
  categories.map((category) => [
    category,
    defineSource({
      name: `categoryTimes:${category}`,
      tables: ['categoryTimes'],
      needsUser: true,
      onDemand: true,
      listensTo: ['availability'],
      pull: async ({ signal, etag }) => {
        const answer = await readRevalidated(
          await client.api.availability.$get({ query: { category } }, { init: { signal }, headers: ifNoneMatch(etag) }),
        );
        if (answer.notModified) return answer;
        return { put: { categoryTimes: [{ category, ...answer.body }] }, etag: answer.etag };
      },
    }),
  ]),
) as Record<Category, Source>;
