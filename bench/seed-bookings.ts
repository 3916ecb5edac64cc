import { bookingCategories, type BookingCategory } from '../src/common/bookings.ts';
import { sastInstant } from '../src/common/sast.ts';
import type { Services } from '../src/server/server.ts';

/** `count` bookings over two years of dates; `tutorCategory` gets every one when `onlyTutors`, else a quarter. */
export async function seedBookings(services: Services, count: number, onlyTutors: boolean) {
  const started = performance.now();
  const students = await seedStudents(services);
  const day = 24 * 3_600_000;
  const first = Date.UTC(2026, 0, 1);
  const statuses = ['Pending', 'Confirmed', 'Completed', 'Cancelled'] as const;
  const categories: BookingCategory[] = onlyTutors ? ['Statistics'] : [...bookingCategories];
  await services.db.transaction().execute(async (trx) => {
    for (let from = 0; from < count; from += 500) {
      const bookings = [];
      const changes = [];
      for (let n = from; n < Math.min(from + 500, count); n++) {
        const student = students[n % students.length]!;
        const date = new Date(first + (n % 730) * day).toISOString().slice(0, 10);
        const status = statuses[n % statuses.length]!;
        const confirmed = status === 'Confirmed' || status === 'Completed' ? '14:00' : null;
        const createdAt = new Date(first - 7 * day + n * 1000).toISOString();
        const id = crypto.randomUUID();
        bookings.push({
          id,
          user_id: student.id,
          student_name: student.name,
          student_email: student.email,
          module_name: 'Introduction to Statistics',
          module_category: categories[n % categories.length]!,
          price_cents_per_hour: 80_00,
          total_cents: 160_00,
          date,
          slot1: '09:00',
          slot2: '14:00',
          slot3: '17:30',
          confirmed_slot: confirmed,
          starts_at: sastInstant(date, confirmed ?? '09:00').toISOString(),
          hours: 2,
          concepts: 'Hypothesis testing, p-values and the difference between one- and two-tailed tests.',
          status,
          late_cancellation: 0,
          payment_reference: `TB-${n.toString(36).toUpperCase().padStart(6, '0')}`,
          reminder_sent_at: null,
          created_at: createdAt,
          updated_at: createdAt,
          version: 2 * n + 2,
        });
        changes.push({
          id: crypto.randomUUID(),
          booking_id: id,
          version: 2 * n + 1,
          at: createdAt,
          by_user_id: student.id,
          by_name: student.name,
          by_role: 'student' as const,
          from_status: null,
          to_status: 'Pending' as const,
          slot: null,
        });
        if (status !== 'Pending') {
          changes.push({
            id: crypto.randomUUID(),
            booking_id: id,
            version: 2 * n + 2,
            at: createdAt,
            by_user_id: null,
            by_name: 'Stats Tutor',
            by_role: 'tutor' as const,
            from_status: 'Pending' as const,
            to_status: status,
            slot: confirmed,
          });
        }
      }
      await trx.insertInto('bookings').values(bookings).execute();
      await trx.insertInto('booking_changes').values(changes).execute();
    }
    await trx
      .updateTable('sync_counter')
      .set({ value: 2 * count + 2 })
      .where('name', '=', 'bookings')
      .execute();
  });
  console.log(
    `seeded ${count.toLocaleString('en-ZA')} bookings in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

/** 200 verified students, written straight to the table: the bookings' owners. */
export async function seedStudents(services: Services) {
  const students = Array.from({ length: 200 }, (_, i) => ({
    id: crypto.randomUUID(),
    name: `Student ${i}`,
    email: `seeded-${i}@example.com`,
    email_verified: true,
    image: null,
    created_at: new Date(),
    updated_at: new Date(),
  }));
  await services.db.insertInto('users').values(students).execute();
  return students;
}
