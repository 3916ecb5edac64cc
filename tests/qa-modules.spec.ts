import { expect, test, type Browser, type Page } from '@playwright/test';
import type { Question } from '../src/common/qa.ts';
import {
  expectNoAxeViolations,
  journeyTimeout,
  landingByRole,
  logIn,
  makeStaff,
  origin,
  signUpAndVerify,
  viewports,
} from './fixtures.ts';

// Issue 39 §3: a question tagged with a module, similar questions while typing, anonymity towards classmates, and
// an answer endorsed by a tutor, tried as a student, a classmate and a tutor, at 360 and 1280 px.

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/screenshots/qa-modules-${name}.png`, fullPage: true });

async function person(
  browser: Browser,
  name: string,
  role: 'student' | 'tutor',
  viewport: { width: number; height: number },
) {
  const context = await browser.newContext({ baseURL: origin, viewport });
  const page = await context.newPage();
  const account = await signUpAndVerify(page.request, name);
  if (role === 'tutor') makeStaff(account.email, 'tutor', ['Computer Science']);
  await logIn(page, account, landingByRole[role]);
  return { context, page, account };
}

async function post(page: Page, body: Record<string, unknown>): Promise<Question> {
  const res = await page.request.post('/api/questions', {
    data: { id: crypto.randomUUID(), ...body },
    headers: { origin },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Question;
}

async function postAnswer(page: Page, questionId: string, text: string) {
  const res = await page.request.post(`/api/questions/${questionId}/answers`, {
    data: { id: crypto.randomUUID(), text },
    headers: { origin },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/** Everything the device keeps in IndexedDB, as text: what a later user of the device could read. */
const deviceText = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('tutorbook');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const names = ['questions', 'answers', 'qaRevealed'].filter((n) => db.objectStoreNames.contains(n));
          const tx = db.transaction(names);
          const out: Record<string, unknown> = {};
          for (const name of names) {
            const all = tx.objectStore(name).getAll();
            all.onsuccess = () => (out[name] = all.result);
          }
          tx.oncomplete = () => resolve(JSON.stringify(out));
        };
      }),
  );

test('a module, similar questions, an anonymous question and an endorsed answer, at 360 and 1280 px', async ({
  browser,
}) => {
  test.setTimeout(journeyTimeout(180_000));
  const word = unique();
  const asker = await person(browser, `Naledi Asker${word.slice(-3)}`, 'student', viewports.phone);
  const classmate = await person(browser, 'Bongani Classmate', 'student', viewports.phone);
  const tutor = await person(browser, 'Sipho Tutor', 'tutor', viewports.desktop);
  const askerName = asker.account.name;

  // Asked before, with an answer: what the asker should be shown while she types.
  const earlier = await post(classmate.page, {
    title: `Recursion overflow${word} in my Java method`,
    text: 'It never stops.',
    module: 'java-oop-and-gui',
  });
  await postAnswer(tutor.page, earlier.id, 'Check the base case.');
  const elsewhere = await post(classmate.page, { title: `Unrelated ${word}`, text: 'Nothing to do with Java.' });

  // The asker, on her phone: similar questions show while she types the title.
  const { page } = asker;
  await page.goto('/qa');
  const form = page.getByRole('form', { name: 'Ask a question' });
  await form.getByLabel('Title').fill(`Why does my recursion overflow${word}?`);
  const similar = form.getByRole('region', { name: 'Already asked? Similar questions' });
  await expect(similar.getByRole('link', { name: earlier.title })).toBeVisible();
  await expect(similar).toContainText('1 answer');
  await form.getByLabel('Description').fill('My factorial in Java throws StackOverflowError.');
  await form.getByLabel('Module').selectOption({ label: 'Java OOP and GUI' });
  await form.getByLabel('Post anonymously to classmates').check();
  await expect(form).toContainText('tutors and the admin still see your name');
  await expectNoAxeViolations(page);
  await shot(page, 'ask-phone');
  await form.getByRole('button', { name: 'Post question' }).click();
  const mine = page.getByRole('article', { name: `Why does my recursion overflow${word}?` });
  await expect(mine).toContainText('You asked anonymously');
  await expect(mine).toContainText(askerName);
  await expect(mine.getByRole('link', { name: 'Java OOP and GUI' })).toBeVisible();
  // The board's own rows, kept past a log-out, never name her: only her session's table does.
  await expect(mine).not.toContainText('Waiting to send');
  const asked = JSON.parse(await deviceText(page)) as { questions: Question[]; qaRevealed: unknown[] };
  const ownRow = asked.questions.find((q) => q.title.endsWith(`${word}?`))!;
  expect(ownRow.author.name).toBe('Anonymous student');
  expect(JSON.stringify(asked.questions)).not.toContain(askerName);
  const id = ownRow.id;

  // A classmate sees "Anonymous student", and her device holds no name.
  await classmate.page.goto(`/qa/${id}`);
  const seen = classmate.page.getByRole('article', { name: `Why does my recursion overflow${word}?` });
  await expect(seen).toContainText('Anonymous student');
  await expect(seen).not.toContainText(askerName);
  await expect.poll(async () => (await deviceText(classmate.page)).includes(id)).toBe(true);
  expect(await deviceText(classmate.page)).not.toContain(askerName);
  await expectNoAxeViolations(classmate.page);
  await shot(classmate.page, 'classmate-phone');

  // Two answers; the tutor sees the name and endorses the later one, which then comes first.
  await postAnswer(classmate.page, id, 'Add a base case: if n <= 1 return 1.');
  await postAnswer(asker.page, id, 'Answering myself: I forgot the return.');
  await tutor.page.goto(`/qa/${id}`);
  const tutorCard = tutor.page.getByRole('article', { name: `Why does my recursion overflow${word}?` });
  await expect(tutorCard).toContainText(askerName);
  await expect(tutorCard).toContainText('Anonymous to students');
  const answerItems = tutorCard.getByRole('listitem');
  await expect(answerItems).toHaveCount(2);
  await expect(answerItems.first()).toContainText('Add a base case');
  await answerItems.nth(1).getByRole('button', { name: 'Endorse' }).click();
  await expect(answerItems.first()).toContainText('Endorsed by a tutor');
  await expect(answerItems.first()).toContainText('I forgot the return');
  // Her own answer on her anonymous question: named to the tutor, who sees who asked.
  await expect(answerItems.first()).toContainText(askerName);
  await expectNoAxeViolations(tutor.page);
  await shot(tutor.page, 'endorsed-desktop');

  // The classmate (live, or on her next visit) sees it marked and first, and may not endorse.
  await classmate.page.reload();
  const items = seen.getByRole('listitem');
  await expect(items.first()).toContainText('Endorsed by a tutor');
  await expect(items.first()).toContainText('I forgot the return');
  await expect(seen.getByRole('button', { name: 'Endorse' })).toHaveCount(0);
  await expect(items.first()).toContainText('Anonymous student');
  await expect(seen).not.toContainText(askerName);
  await shot(classmate.page, 'endorsed-phone');

  // The board filtered by the module holds her question and not the unrelated one, at both widths.
  for (const viewport of [viewports.phone, viewports.desktop]) {
    await classmate.page.setViewportSize(viewport);
    await classmate.page.goto('/qa');
    await classmate.page.getByLabel('Filter by module').selectOption({ label: 'Java OOP and GUI' });
    await expect(classmate.page).toHaveURL(/\?module=java-oop-and-gui$/);
    await expect(classmate.page.getByRole('article', { name: `Why does my recursion overflow${word}?` })).toBeVisible();
    await expect(classmate.page.getByRole('article', { name: elsewhere.title })).toHaveCount(0);
    await expectNoAxeViolations(classmate.page);
    await shot(classmate.page, `filtered-${viewport.width}`);

    // The module's page lists its latest questions.
    await classmate.page.goto('/modules/java-oop-and-gui');
    const latest = classmate.page.getByRole('region', { name: 'Latest questions on Java OOP and GUI' });
    await expect(latest.getByRole('link', { name: `Why does my recursion overflow${word}?` })).toBeVisible();
    await expect(latest.getByRole('link', { name: earlier.title })).toBeVisible();
    await expectNoAxeViolations(classmate.page);
    await shot(classmate.page, `module-page-${viewport.width}`);
  }

  for (const p of [asker, classmate, tutor]) await p.context.close();
});

test('a question asked anonymously offline waits without a name and arrives anonymous', async ({ browser }) => {
  test.setTimeout(journeyTimeout(120_000));
  const word = unique();
  const asker = await person(browser, `Lindiwe Offline${word.slice(-3)}`, 'student', viewports.desktop);
  const { page, context } = asker;
  await page.goto('/qa');
  await expect(page.getByRole('form', { name: 'Ask a question' })).toBeVisible();
  await context.setOffline(true);
  const form = page.getByRole('form', { name: 'Ask a question' });
  await form.getByLabel('Title').fill(`Offline anonymous ${word}`);
  await form.getByLabel('Description').fill('Asked on the train.');
  await form.getByLabel('Post anonymously to classmates').check();
  await form.getByRole('button', { name: 'Post question' }).click();
  const card = page.getByRole('article', { name: `Offline anonymous ${word}` });
  await expect(card).toContainText('Waiting to send');
  await expect(card).toContainText('You asked anonymously');
  expect(JSON.parse(await deviceText(page)).questions.find((q: Question) => q.title.endsWith(word)).author.name).toBe(
    'Anonymous student',
  );
  await context.setOffline(false);
  await expect(card).not.toContainText('Waiting to send', { timeout: 20_000 });

  const visitor = await browser.newContext({ baseURL: origin });
  const found = (await (await visitor.request.get(`/api/questions?q=${word}`)).json()) as { questions: Question[] };
  expect(found.questions).toHaveLength(1);
  expect(found.questions[0]!.author.name).toBe('Anonymous student');
  expect(JSON.stringify(found)).not.toContain(asker.account.name);
  await visitor.close();
  await context.close();
});
