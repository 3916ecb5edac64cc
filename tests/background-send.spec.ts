import { expect, test, type Page } from '@playwright/test';
import { loginAs, origin, waitForActiveServiceWorker } from './fixtures.ts';

// Sending with the tab closed (src/client/app/background-send.ts, outbox-worker.ts): Chromium's Background Sync.

const askForm = (page: Page) => page.getByRole('form', { name: 'Ask a question' });

const questionsTitled = async (page: Page, title: string) => {
  const answer = await page.request.get(`/api/questions?q=${encodeURIComponent(title)}`);
  const body = (await answer.json()) as { questions: { title: string }[] };
  return body.questions.filter((question) => question.title === title).length;
};

test('a question asked offline is sent by the service worker once the connection is back, with no page open, once', async ({
  page,
  context,
}) => {
  await loginAs(page, 'student');
  await page.goto('/qa');
  await waitForActiveServiceWorker(page);
  // A page of another site stays open: the browser runs, but no page of the app does.
  const elsewhere = await context.newPage();
  const cdp = await context.newCDPSession(elsewhere);
  const registrations: { registrationId: string; scopeURL: string }[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => registrations.push(...updated));
  await cdp.send('ServiceWorker.enable');

  await context.setOffline(true);
  const title = `Asked on the last train ${Date.now()}`;
  await askForm(page).getByLabel('Title').fill(title);
  await askForm(page).getByLabel('Description').fill('Sent after I closed the app.');
  await askForm(page).getByRole('button', { name: 'Post question' }).click();
  // The page asks the browser to wake the worker once there is a connection.
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & {
          sync: { getTags(): Promise<string[]> };
        };
        return registration.sync.getTags();
      }),
    )
    .toContain('tutorbook-outbox');
  await page.close();
  expect(await questionsTitled(elsewhere, title)).toBe(0);

  await context.setOffline(false);
  const registration = registrations.find((r) => r.scopeURL === `${origin}/`);
  expect(registration, JSON.stringify(registrations)).toBeDefined();
  // What Chromium does when the connection returns, now rather than at its own pace (DevTools' "Sync" button).
  await cdp.send('ServiceWorker.dispatchSyncEvent', {
    origin,
    registrationId: registration!.registrationId,
    tag: 'tutorbook-outbox',
    lastChance: false,
  });
  await expect.poll(() => questionsTitled(elsewhere, title), { timeout: 15_000 }).toBe(1);

  // The app opened again: the question is there, sent, and nothing goes twice.
  const again = await context.newPage();
  await again.goto('/qa');
  await expect(again.getByRole('article', { name: title })).toBeVisible();
  await expect(again.getByRole('navigation', { name: 'Main' }).getByRole('status')).not.toContainText('waiting');
  await again.waitForTimeout(2_000);
  expect(await questionsTitled(again, title)).toBe(1);
});
