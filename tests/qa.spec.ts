import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import type { Question, QuestionPage } from '../src/common/qa.ts';
import {
  expectNoAxeViolations,
  fillTitleOnline,
  journeyTimeout,
  logIn,
  loginAs,
  origin,
  viewports,
  waitForActiveServiceWorker,
} from './fixtures.ts';

// ---------------------------------------------------------------------------------------------------------
// Helpers

const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** A browser context of its own (its own cookies and IndexedDB) with a fresh account of `role` signed in. */
async function userPage(browser: Browser, role: 'student' | 'tutor' | 'admin') {
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  const account = await loginAs(page, role);
  return { context, page, account };
}

const askForm = (page: Page) => page.getByRole('form', { name: 'Ask a question' });
const card = (page: Page, title: string) => page.getByRole('article', { name: title });
const answers = (question: Locator) => question.getByRole('listitem');
const toastWith = (page: Page, text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });
const upvote = (question: Locator) => question.getByRole('button', { name: /^Upvote/ });
const downvote = (question: Locator) => question.getByRole('button', { name: /^Downvote/ });

async function ask(page: Page, title: string, text: string) {
  await askForm(page).getByLabel('Title').fill(title);
  await askForm(page).getByLabel('Description').fill(text);
  await askForm(page).getByRole('button', { name: 'Post question' }).click();
}

async function answer(page: Page, title: string, text: string) {
  await page.getByLabel(`Your answer to "${title}"`).fill(text);
  await card(page, title).getByRole('button', { name: 'Post answer' }).click();
}

/** The question's id, as the board renders it (`<article id="q-…">`). */
async function questionId(question: Locator) {
  return (await question.getAttribute('id'))!.replace(/^q-/, '');
}

async function postQuestion(request: APIRequestContext, title: string, text: string): Promise<Question> {
  const res = await request.post('/api/questions', {
    data: { id: crypto.randomUUID(), title, text },
    headers: { origin },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Question;
}

async function postAnswer(request: APIRequestContext, questionId: string, text: string) {
  const res = await request.post(`/api/questions/${questionId}/answers`, {
    data: { id: crypto.randomUUID(), text },
    headers: { origin },
  });
  expect(res.status()).toBe(201);
}

async function search(request: APIRequestContext, q: string): Promise<Question[]> {
  return ((await (await request.get(`/api/questions?q=${encodeURIComponent(q)}`)).json()) as QuestionPage).questions;
}

/** Items still in this page's outbox (unsent or refused). */
const outboxCount = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('tutorbook');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction('outbox').objectStore('outbox').count();
          count.onsuccess = () => resolve(count.result);
        };
      }),
  );

/** Waits until the page has sent everything it queued. */
const expectAllSent = (page: Page) => expect.poll(() => outboxCount(page), { message: 'the outbox empties' }).toBe(0);

async function expectVotes(question: Locator, up: number, down: number, mine: 1 | -1 | 0) {
  await expect(upvote(question)).toHaveAccessibleName(`Upvote, ${up} ${up === 1 ? 'vote' : 'votes'}`);
  await expect(downvote(question)).toHaveAccessibleName(`Downvote, ${down} ${down === 1 ? 'vote' : 'votes'}`);
  await expect(upvote(question)).toHaveAttribute('aria-pressed', String(mine === 1));
  await expect(downvote(question)).toHaveAttribute('aria-pressed', String(mine === -1));
}

async function confirmDialog(page: Page, button: string) {
  await page.getByRole('alertdialog').getByRole('button', { name: button }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
}

/** Scrolls `target`'s top to just under the sticky navbar, for a screenshot that shows what matters. */
async function showAtTop(target: Locator) {
  await target.evaluate((element) => {
    element.scrollIntoView({ block: 'start' });
    window.scrollBy(0, -80);
  });
}

/** Nothing sticks out sideways (a phone would scroll the whole page). */
async function expectNoHorizontalOverflow(page: Page) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
}

// ---------------------------------------------------------------------------------------------------------
// Journeys

test('a visitor reads the board, but asking, answering and voting ask them to log in and write nothing', async ({
  page,
  browser,
}) => {
  const student = await userPage(browser, 'student');
  const title = unique('How do I read a CSV file in Python');
  await postQuestion(student.page.request, title, 'With the `csv` module?');

  await page.goto('/qa');
  const question = card(page, title);
  await expect(question).toContainText('With the csv module?');

  const visitorTitle = unique('Visitor question');
  await ask(page, visitorTitle, 'Can I ask without an account?');
  await expect(toastWith(page, 'Please log in to post a question.')).toBeVisible();

  await answer(page, title, 'Try pandas.read_csv');
  await expect(toastWith(page, 'Log in to answer.')).toBeVisible();
  await expect(page.getByLabel(`Your answer to "${title}"`)).toHaveValue('Try pandas.read_csv');

  await upvote(question).click();
  await expect(toastWith(page, 'Log in to vote.')).toBeVisible();
  await expectVotes(question, 0, 0, 0);

  expect(await search(page.request, visitorTitle)).toEqual([]);
  const [stored] = await search(page.request, title);
  expect(stored).toMatchObject({ upvotes: 0, downvotes: 0, answers: [] });

  await page.getByRole('searchbox', { name: 'Search questions' }).fill(unique('zzqx nothing matches'));
  await expect(page.getByText('No questions found. Be the first to ask!')).toBeVisible();
  await student.context.close();
});

test('a blank title or description is refused with the typed text kept, and an empty answer is ignored', async ({
  page,
}) => {
  await loginAs(page, 'student');
  await page.setViewportSize(viewports.phone);
  await page.goto('/qa');

  await askForm(page).getByLabel('Title').fill('   ');
  await askForm(page).getByLabel('Description').fill('My loop never ends.');
  const post = askForm(page).getByRole('button', { name: 'Post question' });
  await post.click();
  // Said once, just above Post where the eye is: not under each field and in a toast over Post as well.
  const incomplete = 'Please fill in both the question title and description.';
  const alert = askForm(page).getByRole('alert');
  await expect(alert).toHaveText(incomplete);
  await expect(page.getByText(incomplete)).toHaveCount(1);
  const [alertBox, postBox] = [(await alert.boundingBox())!, (await post.boundingBox())!];
  expect(postBox.y - (alertBox.y + alertBox.height)).toBeGreaterThanOrEqual(0);
  expect(postBox.y - (alertBox.y + alertBox.height)).toBeLessThanOrEqual(32);
  await expect(askForm(page).getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');
  await expect(askForm(page).getByLabel('Title')).toHaveAccessibleDescription(new RegExp(incomplete));
  await expect(askForm(page).getByLabel('Description')).not.toHaveAttribute('aria-invalid');
  await expectNoAxeViolations(page);
  await alert.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: 'test-results/screenshots/qa-ask-incomplete-phone.png' });
  await expect(askForm(page).getByLabel('Title')).toHaveValue('   ');
  await expect(askForm(page).getByLabel('Description')).toHaveValue('My loop never ends.');
  // Not in a toast too. (Another may come meanwhile: "TutorBook now works offline on this device.")
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: incomplete })).toHaveCount(0);

  const title = unique('Why does my while loop never end');
  await fillTitleOnline(askForm(page), title);
  // A field filled in is no longer marked, and the message goes once neither is missing.
  await expect(askForm(page).getByLabel('Title')).not.toHaveAttribute('aria-invalid');
  await expect(alert).toHaveCount(0);
  await askForm(page).getByLabel('Description').fill(' \n ');
  await post.click();
  await expect(alert).toHaveText(incomplete);
  await expect(askForm(page).getByLabel('Description')).toHaveAttribute('aria-invalid', 'true');
  await expect(askForm(page).getByLabel('Title')).toHaveValue(title);
  expect(await search(page.request, title)).toEqual([]);

  await askForm(page).getByLabel('Description').fill('`while (i < 10)` and i never grows.');
  await askForm(page).getByRole('button', { name: 'Post question' }).click();
  await expect(card(page, title)).toBeVisible();
  await expect(askForm(page).getByLabel('Title')).toHaveValue('');
  await expectAllSent(page);

  await page.locator('[data-sonner-toast]').waitFor({ state: 'detached' });
  await answer(page, title, '  \n  ');
  await expect(card(page, title)).toContainText('0 answers');
  expect(await outboxCount(page)).toBe(0);
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
  expect((await search(page.request, title))[0]!.answers).toEqual([]);
});

test('two students vote up, withdraw and switch; each sees their own vote and the same counts as the server', async ({
  browser,
}) => {
  const ann = await userPage(browser, 'student');
  const ben = await userPage(browser, 'student');
  const title = unique('Is recursion slower than a loop');
  const { id } = await postQuestion(ann.page.request, title, 'In Java, for factorial.');
  for (const { page } of [ann, ben]) await page.goto('/qa');
  const annCard = card(ann.page, title);
  const benCard = card(ben.page, title);

  await upvote(annCard).click();
  await expectVotes(annCard, 1, 0, 1);
  await expectAllSent(ann.page);
  await upvote(benCard).click();
  await expectVotes(benCard, 2, 0, 1);
  await expectAllSent(ben.page);

  // Ann withdraws hers (the same arrow again), Ben switches his (the other arrow).
  await upvote(annCard).click();
  await expectVotes(annCard, 1, 0, 0);
  await downvote(benCard).click();
  await expectVotes(benCard, 0, 1, -1);
  await expectAllSent(ann.page);
  await expectAllSent(ben.page);

  for (const { page } of [ann, ben]) await page.reload();
  await expectVotes(annCard, 0, 1, 0);
  await expectVotes(benCard, 0, 1, -1);
  const stored = (await (await ben.page.request.get(`/api/questions/${id}`)).json()) as Question;
  expect(stored).toMatchObject({ upvotes: 0, downvotes: 1, myVote: -1 });
  for (const { context } of [ann, ben]) await context.close();
});

test('offline, a question and its answer show at once as waiting, survive a reload, and are sent once back online', async ({
  browser,
}) => {
  const ann = await userPage(browser, 'student');
  const ben = await userPage(browser, 'student');
  const { page, context } = ann;
  await page.goto('/qa');
  await waitForActiveServiceWorker(page);
  await expect(page.getByRole('heading', { name: 'Community Q&A' })).toBeVisible();

  await context.setOffline(true);
  const title = unique('What is a foreign key');
  await ask(page, title, 'In SQL, and why do I need one?');
  const question = card(page, title);
  await expect(question.getByText('Waiting to send')).toHaveCount(1);
  await answer(page, title, 'It points at a row of another table.');
  await expect(answers(question)).toHaveCount(1);
  await expect(question.getByText('Waiting to send')).toHaveCount(2);

  await page.reload();
  await expect(question.getByText('Waiting to send')).toHaveCount(2);
  await expect(answers(question)).toContainText('It points at a row of another table.');

  await context.setOffline(false);
  await expect(question.getByText('Waiting to send')).toHaveCount(0);
  await expectAllSent(page);

  await ben.page.goto('/qa');
  await expect(card(ben.page, title)).toHaveCount(1);
  await expect(answers(card(ben.page, title))).toHaveCount(1);
  const stored = await search(ben.page.request, title);
  expect(stored).toHaveLength(1);
  expect(stored[0]!.answers.map((a) => a.text)).toEqual(['It points at a row of another table.']);
  for (const c of [ann.context, ben.context]) await c.close();
});

test('posts the server refuses say why, keep their text to edit, and can be discarded', async ({ browser }) => {
  const ann = await userPage(browser, 'student');
  const admin = await userPage(browser, 'admin');
  const { page, context } = ann;
  const doomedTitle = unique('Question the admin removes');
  const doomed = await postQuestion(page.request, doomedTitle, 'It will be gone before the answer arrives.');
  await page.goto('/qa');
  await waitForActiveServiceWorker(page);
  await expect(card(page, doomedTitle)).toBeVisible();

  await context.setOffline(true);
  await answer(page, doomedTitle, 'An answer written on the train.');
  const clashTitle = unique('Question whose id is already taken');
  await ask(page, clashTitle, 'Typed offline.');
  await expect(card(page, clashTitle).getByText('Waiting to send')).toBeVisible();
  // The same id already holds another post on the server (as if sent before with other words): 409. Once the
  // board refreshes, the card shows the server's post under that id; the box keeps what this user typed.
  const clashId = await questionId(card(page, clashTitle));
  const clash = page.locator(`article#q-${clashId}`);
  const taken = await admin.page.request.post('/api/questions', {
    data: { id: clashId, title: 'Another post', text: 'Other words.' },
    headers: { origin },
  });
  expect(taken.status()).toBe(201);
  expect((await admin.page.request.delete(`/api/questions/${doomed.id}`, { headers: { origin } })).status()).toBe(200);
  // The refused answer moves from its question's card to the stranded answers when the board drops the question:
  // it may be in either, never in both at once (a check at one moment would catch that only by luck).
  await page.evaluate((message) => {
    const shown = () => [...document.querySelectorAll('li')].filter((li) => li.textContent.includes(message)).length;
    const watch = window as unknown as { mostShownAtOnce: number };
    watch.mostShownAtOnce = 0;
    new MutationObserver(() => (watch.mostShownAtOnce = Math.max(watch.mostShownAtOnce, shown()))).observe(
      document.body,
      { childList: true, subtree: true, characterData: true },
    );
  }, 'Not sent: This question no longer exists.');
  await context.setOffline(false);

  // The answer to the deleted question.
  const refusedAnswer = page.getByRole('listitem').filter({ hasText: 'Not sent: This question no longer exists.' });
  await expect(refusedAnswer).toBeVisible();
  await expect(card(page, doomedTitle)).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { mostShownAtOnce: number }).mostShownAtOnce)).toBe(1);
  await expect(refusedAnswer.getByLabel('Text', { exact: true })).toHaveValue('An answer written on the train.');
  await expect(refusedAnswer.getByLabel('Text', { exact: true })).toBeEditable();

  // The question whose id was taken: title and text kept in boxes; an edit is kept across Send again.
  await expect(clash.getByText('Not sent: This post was already sent with different content.')).toBeVisible();
  await expect(clash.getByLabel('Title', { exact: true })).toHaveValue(clashTitle);
  await expect(clash.getByLabel('Text', { exact: true })).toHaveValue('Typed offline.');
  await clash.getByLabel('Text', { exact: true }).fill('Typed offline, then edited.');
  await clash.getByRole('button', { name: 'Send again' }).click();
  await expect(clash).toContainText('Typed offline, then edited.');
  await expect(clash.getByText('Not sent: This post was already sent with different content.')).toBeVisible();

  await clash.getByRole('button', { name: 'Discard' }).click();
  await confirmDialog(page, 'Discard');
  await expect(clash).toHaveCount(0);
  await refusedAnswer.getByRole('button', { name: 'Discard' }).click();
  await confirmDialog(page, 'Discard');
  await expect(refusedAnswer).toHaveCount(0);
  await expect.poll(() => outboxCount(page)).toBe(0);
  expect(await (await page.request.get(`/api/questions/${clashId}`)).json()).toMatchObject({
    title: 'Another post',
    text: 'Other words.',
  });
  for (const c of [ann.context, admin.context]) await c.close();
});

test('a question, its answer and a vote from one student appear on another student’s open board without a reload', async ({
  browser,
}) => {
  const ann = await userPage(browser, 'student');
  const ben = await userPage(browser, 'student');
  for (const { page } of [ann, ben]) await page.goto('/qa');
  await expect(ben.page.getByRole('heading', { name: 'Community Q&A' })).toBeVisible();

  const title = unique('What does Big O of n log n mean');
  await ask(ann.page, title, 'For merge sort.');
  await expect(card(ben.page, title)).toBeVisible();
  await answer(ann.page, title, 'Halving log n times, n work each time.');
  await expect(answers(card(ben.page, title))).toContainText('Halving log n times');
  await upvote(card(ann.page, title)).click();
  await expectVotes(card(ben.page, title), 1, 0, 0);
  for (const { context } of [ann, ben]) await context.close();
});

test('a student who renames herself sees the new name on her posts on the board at once and after a reload, in her other tab and on her other device', async ({
  browser,
}) => {
  test.setTimeout(journeyTimeout(90_000));
  const her = await userPage(browser, 'student');
  const oldName = her.account.name;
  const classmate = await userPage(browser, 'student');
  // Her five questions, and her answer to a classmate's: the board holds them under the name she had.
  const titles = Array.from({ length: 5 }, (_, i) => unique(`Rename check ${i + 1}: why does my loop stop early`));
  for (const title of titles) await postQuestion(her.page.request, title, 'Off by one, I think.');
  const theirs = await postQuestion(classmate.page.request, unique('Rename check: what is a pointer'), 'In C.');
  await postAnswer(her.page.request, theirs.id, 'The address of a value.');
  const herAnswer = (page: Page) => answers(card(page, theirs.title)).filter({ hasText: 'The address of a value.' });

  const otherTab = await her.context.newPage();
  const otherDevice = await browser.newContext({ baseURL: origin });
  const otherDevicePage = await otherDevice.newPage();
  await logIn(otherDevicePage, her.account);
  for (const page of [her.page, otherTab, otherDevicePage]) {
    await page.goto('/qa');
    for (const title of titles) await expect(card(page, title)).toContainText(oldName);
    await expect(herAnswer(page)).toContainText(oldName);
  }
  for (const page of [otherTab, otherDevicePage])
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

  const newName = unique('Naledi Mthembu');
  await her.page.goto('/profile');
  await her.page.getByRole('button', { name: 'Change name' }).click();
  await her.page.getByRole('form', { name: 'Change your name' }).getByLabel('Name').fill(newName);
  await her.page.getByRole('button', { name: 'Save name' }).click();
  await expect(her.page.getByText(newName, { exact: true })).toBeVisible();

  /** Every post of hers says the new name, and none the old (the classmate asked under the same old name). */
  const expectRenamed = async (page: Page) => {
    for (const title of titles) {
      await expect(card(page, title)).toContainText(newName);
      await expect(card(page, title)).not.toContainText(oldName);
    }
    await expect(herAnswer(page)).toContainText(newName);
    await expect(herAnswer(page)).not.toContainText(oldName);
  };
  // Back to the board by its link, in the same document: at once.
  await her.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Community' }).click();
  await expect(her.page).toHaveURL(/\/qa$/);
  await expectRenamed(her.page);
  await her.page.reload();
  await expectRenamed(her.page);
  // Her other tab and her other device, without a reload.
  for (const page of [otherTab, otherDevicePage]) {
    await expectRenamed(page);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  }
  await expect(card(her.page, theirs.title)).toContainText(oldName);
  for (const context of [her.context, classmate.context, otherDevice]) await context.close();
});

test('the admin deletes questions and answers after confirming; the asker accepts an answer; tutors are marked', async ({
  browser,
}) => {
  const asker = await userPage(browser, 'student');
  const tutor = await userPage(browser, 'tutor');
  const admin = await userPage(browser, 'admin');
  const title = unique('How do I centre a div');
  const { id } = await postQuestion(asker.page.request, title, 'Horizontally and vertically.');
  await postAnswer(tutor.page.request, id, 'Use flexbox: `display: flex`.');
  await postAnswer(admin.page.request, id, 'Or grid with `place-items: center`.');

  await asker.page.goto('/qa');
  const mine = card(asker.page, title);
  await expect(answers(mine)).toHaveCount(2);
  await expect(answers(mine).first()).toContainText('Tutor');
  await expect(mine.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  await expect(mine.getByRole('button', { name: 'Accept this answer' })).toHaveCount(2);
  await answers(mine).nth(1).getByRole('button', { name: 'Accept this answer' }).click();
  await expect(answers(mine).first()).toContainText('Accepted answer');
  await expect(answers(mine).first()).toContainText('place-items: center');
  await expect(answers(mine).first().getByRole('button', { name: 'Unmark accepted' })).toBeVisible();

  await admin.page.goto('/qa');
  const board = card(admin.page, title);
  await expect(answers(board).first()).toContainText('Accepted answer');
  await expect(board.getByRole('button', { name: 'Accept this answer' })).toHaveCount(0);
  await expect(board.getByRole('button', { name: 'Delete answer' })).toHaveCount(2);
  await answers(board).filter({ hasText: 'Use flexbox' }).getByRole('button', { name: 'Delete answer' }).click();
  await expect(admin.page.getByRole('alertdialog')).toContainText('Delete this answer by Lerato Tutor for everyone?');
  await confirmDialog(admin.page, 'Delete');
  await expect(answers(board)).toHaveCount(1);

  await board.getByRole('button', { name: 'Delete question' }).click();
  await admin.page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(board).toBeVisible();
  await board.getByRole('button', { name: 'Delete question' }).click();
  await expect(admin.page.getByRole('alertdialog')).toContainText(`Delete "${title}" and its answers for everyone?`);
  await confirmDialog(admin.page, 'Delete');
  await expect(board).toHaveCount(0);
  expect((await admin.page.request.get(`/api/questions/${id}`)).status()).toBe(404);
  for (const { context } of [asker, tutor, admin]) await context.close();
});

test('HTML, scripts and javascript: links in a post are shown inert', async ({ page }) => {
  let dialogs = 0;
  page.on('dialog', (dialog) => {
    dialogs += 1;
    void dialog.dismiss();
  });
  await loginAs(page, 'student');
  await page.goto('/qa');
  const title = unique('Is this safe <b>bold</b>');
  await ask(
    page,
    title,
    '<img src=x onerror=alert(1)>\n\n<script>alert(2)</script>\n\nSee [link](javascript:alert(3)) and `<code>`.',
  );
  const question = card(page, title);
  await expect(question).toContainText('See link and <code>.');
  await expectAllSent(page);
  await page.reload();
  // The server's HTML: the javascript: link is its text alone (decision 0060), nothing to click.
  await expect(question).toContainText('See link and <code>.');
  await expect(question.getByRole('link', { name: 'link' })).toHaveCount(0);
  await expect(question.locator('img, script, b, a:not([href])')).toHaveCount(0);
  await question.getByText('See link and').click();
  expect(dialogs).toBe(0);
});

test('/qa has no axe violations signed out or in, and fits a phone with waiting and refused posts', async ({
  page,
  browser,
}) => {
  const visitor = await browser.newContext({ baseURL: origin });
  const visitorPage = await visitor.newPage();
  const code =
    '```java\npublic static void main(String[] args) { System.out.println("A long line of Java that must scroll inside its box"); }\n```';
  await loginAs(page, 'student');
  await postQuestion(
    page.request,
    unique('Why does my Java program print nothing'),
    `Here it is:\n\n${code}\n\nIt compiles with \`javac Main.java\`.`,
  );

  await visitorPage.goto('/qa');
  await expect(visitorPage.getByRole('article').first()).toBeVisible();
  await expectNoAxeViolations(visitorPage);
  await visitor.close();

  await page.goto('/qa');
  await waitForActiveServiceWorker(page);
  await expect(page.getByRole('article').first()).toBeVisible();
  await expectNoAxeViolations(page);

  await page.context().setOffline(true);
  const waitingTitle = unique('A question asked on the bus');
  await ask(page, waitingTitle, `Still waiting:\n\n${code}`);
  await expect(card(page, waitingTitle).getByText('Waiting to send')).toBeVisible();
  const refusedTitle = unique('A question that will be refused');
  await ask(page, refusedTitle, 'Its id is taken before it is sent.');
  const refusedId = await questionId(card(page, refusedTitle));
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await expectNoHorizontalOverflow(page);
    await showAtTop(card(page, waitingTitle));
    await page.screenshot({ path: `test-results/screenshots/qa-waiting-${size}.png` });
  }

  expect(
    (
      await page.request.post('/api/questions', {
        data: { id: refusedId, title: 'Taken', text: 'Taken.' },
        headers: { origin },
      })
    ).status(),
  ).toBe(201);
  await page.context().setOffline(false);
  const refused = page.locator(`article#q-${refusedId}`);
  await expect(refused.getByText(/^Not sent:/)).toBeVisible();
  await expectNoAxeViolations(page);
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await expectNoHorizontalOverflow(page);
    await showAtTop(refused);
    await page.screenshot({ path: `test-results/screenshots/qa-refused-${size}.png` });
  }
});
