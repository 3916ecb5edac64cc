import { expect, test, type Page } from '@playwright/test';
import type { Booking } from '../src/common/bookings.ts';
import type { Question } from '../src/common/qa.ts';
import { sastDate } from '../src/common/sast.ts';
import { sessionMessages } from '../src/common/session-notes.ts';
import {
  confirmTime,
  expectNoAxeViolations,
  journeyTimeout,
  newModule,
  origin,
  userPage,
  viewports,
} from './fixtures.ts';

/**
 * From a question to a session (issue 39 §4), as a student and a tutor meet it: she asks; a tutor offers a session
 * on her question; her notice opens the booking page with the question linked, a draft that survives a reload
 * offline; she requests; the tutor confirms; once the session is Completed the tutor writes notes, which she reads
 * (offline too); she agrees to a summary, and the tutor posts it on her question. At 360 and 1280 px, axe clean.
 */
const dayMs = 24 * 3_600_000;
const daysAhead = (days: number) => sastDate(new Date(Date.now() + days * dayMs));
const form = (page: Page) => page.getByRole('form', { name: 'Your session' });
const toastWith = (page: Page, text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });

/** What the page's IndexedDB holds in a store. */
const stored = (page: Page, store: string) =>
  page.evaluate(
    (name) =>
      new Promise<unknown[]>((resolve, reject) => {
        const open = indexedDB.open('tutorbook');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction(name).objectStore(name).getAll();
          all.onsuccess = () => resolve(all.result as unknown[]);
        };
      }),
    store,
  );

async function shoot(page: Page, name: string) {
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `test-results/screenshots/question-sessions-${name}-${size}.png`, fullPage: true });
  }
}

test('a tutor’s offer on a question becomes the student’s booking draft and, after the session, its notes', async ({
  browser,
}) => {
  test.setTimeout(journeyTimeout(180_000));
  const { admin, module } = await newModule(browser, 'Statistics');
  const student = await userPage(browser, 'student');
  const tutor = await userPage(browser, 'tutor', { categories: ['Statistics'] });
  const otherSubject = await userPage(browser, 'tutor', { categories: ['Mathematics'] });

  // She asks, about the module.
  const asked = await student.page.request.post('/api/questions', {
    data: {
      id: crypto.randomUUID(),
      title: 'Why is my p-value not the chance H0 is true?',
      text: 'p = 0.03. So?',
      module: module.slug,
    },
    headers: { origin },
  });
  expect(asked.status()).toBe(201);
  const question = (await asked.json()) as Question;

  // A tutor of another subject has no offer to make; hers offers a session on it, once.
  await otherSubject.page.goto(`/qa/${question.id}`);
  await expect(otherSubject.page.getByRole('heading', { name: question.title })).toBeVisible();
  await expect(otherSubject.page.getByRole('button', { name: sessionMessages.offer })).toHaveCount(0);
  await tutor.page.goto(`/qa/${question.id}`);
  await tutor.page.getByRole('button', { name: sessionMessages.offer }).click();
  await expect(tutor.page.getByText(sessionMessages.offered)).toBeVisible();
  await tutor.page.reload();
  await expect(tutor.page.getByText(sessionMessages.offered)).toBeVisible();
  await expect(tutor.page.getByRole('button', { name: sessionMessages.offer })).toHaveCount(0);

  // Her question's page says who offered; her notice opens the booking page with the question linked.
  await student.page.goto(`/qa/${question.id}`);
  await expect(student.page.getByText(sessionMessages.offeredBy('Lerato Tutor'))).toBeVisible();
  await shoot(student.page, 'offer-on-question');
  await student.page.goto('/notifications');
  const notice = student.page.getByRole('listitem', { name: `Unread: A session offered: ${question.title}` });
  await notice.getByRole('link').click();
  // The booking page of her question's module: nothing to choose.
  await expect(student.page.getByRole('heading', { name: module.name })).toBeVisible();
  const link = form(student.page).getByText('Linked to');
  await expect(link).toBeVisible();
  await expect(student.page).toHaveURL(/\/booking$/);
  await expect
    .poll(async () => (await stored(student.page, 'bookingDrafts'))[0])
    .toMatchObject({ values: { questionId: question.id } });
  const date = daysAhead(6);
  await form(student.page).getByLabel('Date').fill(date);
  for (const [i, label] of ['First choice', 'Second choice', 'Third choice'].entries())
    await form(student.page).getByLabel(label).fill(['09:00', '13:00', '16:00'][i]!);
  await form(student.page).getByLabel('Concepts you need help with').fill('What a p-value says, and what not.');
  await expect
    .poll(async () => (await stored(student.page, 'bookingDrafts'))[0])
    .toMatchObject({ values: { questionId: question.id, concepts: 'What a p-value says, and what not.' } });
  await shoot(student.page, 'draft');

  // The draft is a draft as any: offline, a reload keeps it, the question's link with it.
  await student.context.setOffline(true);
  await student.page.reload();
  await expect(form(student.page).getByText('Linked to')).toBeVisible();
  await expect(form(student.page).getByLabel('Concepts you need help with')).toHaveValue(
    'What a p-value says, and what not.',
  );
  await student.context.setOffline(false);

  // She requests: the booking names her question.
  await form(student.page).getByRole('button', { name: 'Submit booking request' }).click();
  await student.page.getByRole('alertdialog').getByRole('button', { name: 'Submit' }).click();
  await expect(student.page).toHaveURL(/\/student-dashboard$/);
  const bookings = await (await student.page.request.get('/api/bookings')).json();
  const booked = (bookings as { bookings: Booking[] }).bookings.find((b) => b.moduleName === module.name)!;
  expect(booked.question).toEqual({ id: question.id, title: question.title });
  const studentCard = student.page.locator(`#booking-${booked.id}`);
  await expect(studentCard.getByRole('link', { name: question.title })).toHaveAttribute('href', `/qa/${question.id}`);
  // Her question's page no longer offers to book what she booked.
  await student.page.goto(`/qa/${question.id}`);
  await expect(student.page.getByText(sessionMessages.booked)).toBeVisible();
  await expect(student.page.getByRole('link', { name: sessionMessages.bookOffer })).toHaveCount(0);
  await shoot(student.page, 'booked-from-question');
  await student.page.goto('/student-dashboard');

  // The tutor confirms; after the session it is set Completed (the admin, as staff do once asked).
  const confirmed = await confirmTime(tutor.page.request, booked, '13:00');
  const completed = await admin.page.request.put(`/api/bookings/${booked.id}/status`, {
    data: { status: 'Completed', version: confirmed.version, beforeStart: true },
    headers: { origin },
  });
  expect(completed.status()).toBe(200);

  // The tutor writes the notes on the booking's card.
  await tutor.page.goto('/tutor-dashboard');
  const tutorCard = tutor.page.locator(`#booking-${booked.id}`);
  await expect(tutorCard.getByRole('link', { name: question.title })).toBeVisible();
  await tutorCard.getByLabel(sessionMessages.covered).fill('What a p-value is: P(data this extreme | H0).');
  await tutorCard.getByLabel(sessionMessages.practise).fill('Exercises 4.1 to 4.6; say each answer in words.');
  await tutorCard.getByRole('button', { name: 'Write the notes' }).click();
  await expect(toastWith(tutor.page, sessionMessages.notesSaved)).toBeVisible();
  await expect(tutorCard.getByText(sessionMessages.awaitingConsent)).toBeVisible();
  await expect(tutorCard.getByRole('button', { name: sessionMessages.postSummary })).toHaveCount(0);

  // She reads them with her booking, offline too.
  await expect(studentCard.getByRole('heading', { name: /Session notes/ })).toBeVisible();
  await expect(studentCard).toContainText('Exercises 4.1 to 4.6');
  await student.context.setOffline(true);
  await student.page.reload();
  await expect(studentCard).toContainText('P(data this extreme | H0)');
  await student.context.setOffline(false);
  await student.page.reload();

  // She agrees to a summary on her question; the tutor posts it.
  await studentCard.getByLabel(sessionMessages.consentLabel).check();
  await expect(studentCard.getByLabel(sessionMessages.consentLabel)).toBeChecked();
  await shoot(student.page, 'notes-and-consent');
  await tutor.page.reload();
  await shoot(tutor.page, 'tutor-card');
  await tutorCard.getByRole('button', { name: sessionMessages.postSummary }).click();
  await expect(toastWith(tutor.page, sessionMessages.summaryPosted)).toBeVisible();
  await expect(tutorCard.getByText(sessionMessages.summaryPostedOn)).toBeVisible();

  // It is an answer on her question, for anyone to read.
  await student.page.goto(`/qa/${question.id}`);
  await expect(student.page.getByText('Summary of a tutoring session with Lerato Tutor')).toBeVisible();
  await expect(student.page.getByText('Exercises 4.1 to 4.6; say each answer in words.')).toBeVisible();
  await shoot(student.page, 'summary-on-question');
  for (const c of [admin.context, student.context, tutor.context, otherSubject.context]) await c.close();
});

test('a student sees no offer button, and another student sees no offers', async ({ browser }) => {
  const asker = await userPage(browser, 'student');
  const other = await userPage(browser, 'student');
  const asked = await asker.page.request.post('/api/questions', {
    data: { id: crypto.randomUUID(), title: 'Standard error or standard deviation?', text: 'Which one when?' },
    headers: { origin },
  });
  const question = (await asked.json()) as Question;
  await other.page.goto(`/qa/${question.id}`);
  await expect(other.page.getByRole('heading', { name: question.title })).toBeVisible();
  await expect(other.page.getByRole('button', { name: sessionMessages.offer })).toHaveCount(0);
  const refused = await other.page.request.post(`/api/questions/${question.id}/offers`, { headers: { origin } });
  expect(refused.status()).toBe(403);
  expect((await other.page.request.get(`/api/questions/${question.id}/offers`)).status()).toBe(403);
  for (const c of [asker.context, other.context]) await c.close();
});
