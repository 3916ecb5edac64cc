import { dateAfter, noAvailability, type Availability } from '../../../common/availability.ts';
import { freeTimesDays, type CategoryAvailability, type TutorAvailability } from '../../../common/availability-api.ts';
import { sastDate } from '../../../common/sast.ts';
import type { Category } from '../../../common/roles.ts';
import type { Me } from '../../../common/session.ts';
import { requireRole, requireUser } from '../../auth/auth.session.ts';
import { withTransaction, type Uses } from '../../deps.ts';
import type { ChangeNotice } from '../../events/events.ts';
import { createForbiddenError } from '../../http/errors.ts';
import type { PersonalDataPart } from '../../personal-data.ts';
import { isRecordId } from '../../storage/record-ids.ts';
import { createTutorNotFoundError } from './availability.errors.ts';
import type { TutorAvailabilityRecord } from './availability.storage.ts';

/**
 * A tutor's availability (issue 36): weekly hours in SAST, dates off and a buffer. A tutor reads and sets their
 * own, the admin any tutor's; every signed-in user reads a category's tutors', which the booking page offers
 * free times from. A change applies to what is not confirmed yet: confirmed sessions keep their times, and the
 * free times and the clash check read the availability as it is when they run.
 */

/**
 * Clients call it `availability` in change notices: every signed-in device that holds a category's tutors
 * reads them again. Ids only: the hours are read through the routes, which say who may.
 */
const changed = (tutorId: string): ChangeNotice => ({
  table: 'availability',
  ids: [tutorId],
  audience: { roles: ['student', 'tutor', 'admin'] },
});

/** A tutor their own, the admin anyone's; visitors 401, students and other tutors 403. Before the body is read. */
export function requireAvailabilityAccess(me: Me | undefined, tutorId: string): Me {
  const user = requireRole(me, 'tutor', 'admin');
  if (user.role === 'tutor' && user.id !== tutorId) throw createForbiddenError();
  return user;
}

/** The account `tutorId` names, when it is a tutor's; else 404. */
async function requireTutor({ repos }: Uses<'accounts'>, tutorId: string) {
  const account = isRecordId(tutorId) ? await repos.accounts.findById(tutorId) : undefined;
  if (account?.role !== 'tutor') throw createTutorNotFoundError();
  return account;
}

const toAnswer = (tutorId: string, record: TutorAvailabilityRecord | undefined): TutorAvailability => ({
  tutorId,
  availability: record?.availability ?? noAvailability,
  updatedAt: record?.updatedAt ?? null,
});

/** The tutor's availability, `noAvailability` while they have set none. */
export async function getTutorAvailability(
  deps: Uses<'availability' | 'accounts'>,
  me: Me | undefined,
  tutorId: string,
): Promise<TutorAvailability> {
  requireAvailabilityAccess(me, tutorId);
  await requireTutor(deps, tutorId);
  return toAnswer(tutorId, await deps.repos.availability.find(tutorId));
}

/** Replaces the tutor's availability whole. */
export async function setTutorAvailability(
  deps: Uses<'availability' | 'accounts', 'storage' | 'events' | 'clock'>,
  me: Me | undefined,
  tutorId: string,
  availability: Availability,
): Promise<TutorAvailability> {
  requireAvailabilityAccess(me, tutorId);
  const record = { tutorId, availability, updatedAt: deps.clock.now().toISOString() };
  await withTransaction(deps, async (tx) => {
    // Read in the transaction: an account deleted meanwhile is not given a record.
    await requireTutor(tx, tutorId);
    await tx.repos.availability.save(record);
    tx.events.publish(changed(tutorId));
  });
  return toAnswer(tutorId, record);
}

/**
 * Every tutor of `category`, by name, with their availability (`noAvailability` for those who set none) and
 * their confirmed sessions' times over the free times' weeks: what a student's booking page needs, and nothing
 * else of them (no e-mail, no other categories, no students). Three reads: the tutors, then their records and
 * their sessions at once.
 */
export async function listCategoryAvailability(
  { repos, clock }: Uses<'availability' | 'accounts' | 'bookings' | 'groups', 'clock'>,
  me: Me | undefined,
  category: Category,
): Promise<CategoryAvailability> {
  requireUser(me);
  const today = sastDate(clock.now());
  // A session or its buffer reaches at most into the next day: the day before and the day after are read too.
  const from = dateAfter(today, -1);
  const to = dateAfter(today, freeTimesDays);
  const tutors = (await repos.accounts.staffOf(category))
    .filter((person) => person.role === 'tutor')
    .sort((a, b) => a.name.localeCompare(b.name, 'en') || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const tutorIds = tutors.map((t) => t.id);
  const [found, sessions, groups] = await Promise.all([
    repos.availability.findMany(tutorIds),
    tutorIds.length > 0 ? repos.bookings.busyOf(tutorIds, { from, to }) : [],
    tutorIds.length > 0 ? repos.groups.listFrom(from) : [],
  ]);
  // A group session takes its tutor's time from when it is opened, before any seat is taken.
  const busy = [
    ...sessions,
    ...groups
      .filter((g) => g.date <= to && g.tutor.id !== null && tutorIds.includes(g.tutor.id))
      .map((g) => ({ tutorId: g.tutor.id!, date: g.date, start: g.start, hours: g.hours })),
  ];
  const records = new Map(found.map((record) => [record.tutorId, record]));
  return {
    tutors: tutors.map((tutor) => ({
      tutorId: tutor.id,
      name: tutor.name,
      availability: records.get(tutor.id)?.availability ?? noAvailability,
    })),
    busy: busy.map(({ tutorId, date, start, hours }) => ({ tutorId, date, start, hours })),
    from,
    to,
  };
}

/** The availability's part of the data export and of account deletion (personal-data.ts). */
export const availabilityPersonalData: PersonalDataPart = {
  async exportFor({ repos }, me) {
    const record = await repos.availability.find(me.id);
    return { availability: record ? { ...record.availability, updatedAt: record.updatedAt } : null };
  },

  async eraseFor(tx, userId) {
    if (!(await tx.repos.availability.find(userId))) return;
    await tx.repos.availability.delete(userId);
    // Devices holding the category's tutors drop this one.
    tx.events.publish(changed(userId));
  },
};
