import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createWhatsAppStandin, type WhatsAppStandin } from '../../../scripts/whatsapp-standin.ts';
import { whatsappTemplateMessage, type WhatsAppTemplateMessage } from './whatsapp.ts';
import { createWhatsAppSender, whatsAppOutcomeOf } from './whatsapp.sender.ts';

/**
 * The sender against the Cloud API's stand-in on this machine (scripts/whatsapp-standin.ts), which registers the
 * templates docs/whatsapp.md lists and answers, refuses and fails as it is told: every outcome below is the
 * sender reading a real HTTP answer.
 */
const token = 'EAAG-test-token';
let standin: WhatsAppStandin;
beforeAll(async () => {
  standin = await createWhatsAppStandin({ token, appSecret: 'app-secret' });
});
afterAll(() => standin.close());

const phoneNumberId = '106540352242922';
const senderOf = (options: { token?: string; apiUrl?: string; timeoutMs?: number } = {}) =>
  createWhatsAppSender({ apiUrl: standin.url, token, phoneNumberId, ...options });

let n = 0;
/** A booking confirmation to `to`, a new reference each time so that each test finds its own. */
function confirmation(to = '082 123 4567'): WhatsAppTemplateMessage {
  return whatsappTemplateMessage(
    'booking-confirmed',
    {
      module: 'Java Programming 1',
      time: 'Tue, 08 Dec 2026, 14:00–15:00 SAST',
      amount: 'R180',
      reference: `TB-T${++n}`,
      path: 'student-dashboard',
    },
    to,
  );
}
const sentWith = (reference: string) => standin.messages().filter((m) => m.params.includes(reference));

describe('sending a notice through the Cloud API', () => {
  test('a send is answered with WhatsApp’s message id, and the stand-in has the body as sent', async () => {
    const body = confirmation();
    const outcome = await senderOf().send(body);
    expect(outcome).toEqual({ sent: true, providerId: expect.stringMatching(/^wamid\./) });
    const [message] = sentWith(body.template.components[0].parameters[3]!.text);
    expect(message).toMatchObject({
      id: outcome.sent ? outcome.providerId : '',
      phoneNumberId,
      to: '27821234567',
      template: 'tutorbook_booking_confirmed',
      language: 'en',
      button: 'student-dashboard',
      text: expect.stringContaining(
        'Your Java Programming 1 session is confirmed: Tue, 08 Dec 2026, 14:00–15:00 SAST.',
      ),
    });
    expect(message!.body).toEqual(body);
  });

  test('the Graph API’s version may be part of the URL, as it is with Meta', async () => {
    const outcome = await senderOf({ apiUrl: `${standin.url}/v21.0/` }).send(confirmation());
    expect(outcome.sent).toBe(true);
  });

  test('every kind of notice goes, as the page says to register it', async () => {
    const values = {
      module: 'Statistics',
      time: 'Tue, 08 Dec 2026, 14:00–15:00 SAST',
      amount: 'R180',
      reference: 'TB-KINDS1',
      student: 'Thandi Mokoena',
      times: 'Tue, 08 Dec 2026 at 09:00, 13:30 or 17:00 SAST',
      author: 'Sipho Dlamini',
      question: 'How do I read a CSV file in Java?',
      endorser: 'Sipho Dlamini',
      what: 'your monthly package',
      path: 'qa/6f1c',
    };
    const kinds = [
      'booking-confirmed',
      'booking-time-changed',
      'booking-reminder',
      'booking-cancelled',
      'booking-request',
      'question-answered',
      'answer-accepted',
      'answer-endorsed',
      'payment-recorded',
    ] as const;
    for (const kind of kinds)
      expect(await senderOf().send(whatsappTemplateMessage(kind, values, '0711234567')), kind).toMatchObject({
        sent: true,
      });
  });

  describe('refusals, and whether trying again can help', () => {
    test('5xx twice, then accepted: retried twice, then sent once', async () => {
      standin.refuse({ status: 500, times: 2 });
      const body = confirmation();
      const first = await senderOf().send(body);
      const second = await senderOf().send(body);
      const third = await senderOf().send(body);
      expect(first).toMatchObject({ sent: false, retry: true, reason: expect.stringContaining('HTTP 500') });
      expect(second).toMatchObject({ sent: false, retry: true });
      expect(third).toMatchObject({ sent: true });
      expect(sentWith(body.template.components[0].parameters[3]!.text)).toHaveLength(1);
    });

    test('131026, for one number for good: not retried and gone, while other numbers still get theirs', async () => {
      standin.refuse({ code: 131026, to: '27831112222' });
      for (let i = 0; i < 2; i++)
        expect(await senderOf().send(confirmation('083 111 2222'))).toEqual({
          sent: false,
          gone: true,
          retry: false,
          reason: expect.stringMatching(/^131026: \(#131026\) Message undeliverable.*not on WhatsApp/),
        });
      expect(await senderOf().send(confirmation('083 111 3333'))).toMatchObject({ sent: true });
    });

    test.each([
      [429, 130429, true, "WhatsApp's rate limit"],
      [400, 130429, true, "WhatsApp's rate limit"],
      [400, 131056, true, "WhatsApp's rate limit"],
      [400, 131048, true, "WhatsApp's rate limit"],
      [400, 4, true, "WhatsApp's rate limit"],
      [503, 2, true, "WhatsApp's side failed"],
      [500, 131000, true, "WhatsApp's side failed"],
      [401, 190, true, 'the owner must fix the WhatsApp account: a new access token in WHATSAPP_TOKEN'],
      [400, 131042, true, 'the owner must fix the WhatsApp account'],
      [403, 200, true, 'the owner must fix the WhatsApp account'],
      [400, 131047, false, 'more than 24 hours'],
      [400, 131030, false, 'allowed list'],
      [400, 132001, false, 'docs/whatsapp.md'],
      [400, 100, false, '100: (#100) Invalid parameter'],
    ])('HTTP %i with code %i: retry %s', async (status, code, retry, why) => {
      standin.refuse({ status, code, times: 1 });
      const outcome = await senderOf().send(confirmation());
      expect(outcome).toMatchObject({ sent: false, retry, reason: expect.stringContaining(why) });
      expect(outcome).not.toHaveProperty('gone');
    });

    test.each([
      [502, true],
      [500, true],
      [429, true],
      [401, true],
      [404, false],
      [400, false],
    ])('HTTP %i without a Graph error: retry %s', async (status, retry) => {
      standin.refuse({ status, times: 1, details: '<html>Bad gateway</html>' });
      expect(await senderOf().send(confirmation())).toMatchObject({
        sent: false,
        retry,
        reason: expect.stringContaining(`HTTP ${status}`),
      });
    });

    test('a wrong token is refused by the API (401, code 190): kept for later, saying the owner must fix it', async () => {
      const outcome = await senderOf({ token: 'expired' }).send(confirmation());
      expect(outcome).toMatchObject({
        sent: false,
        retry: true,
        reason: expect.stringMatching(/^190: .*WHATSAPP_TOKEN/),
      });
      expect(standin.attempts().at(-1)).toMatchObject({ status: 401, code: 190 });
    });

    test('a template the owner did not register as the page says: 132001 or 132000, not retried', async () => {
      const other = await createWhatsAppStandin({
        token,
        appSecret: 'app-secret',
        templates: { tutorbook_booking_confirmed: { body: 'Confirmed: {{1}} at {{2}}.', button: true } },
      });
      try {
        const sender = createWhatsAppSender({ apiUrl: other.url, token, phoneNumberId });
        expect(await sender.send(confirmation())).toMatchObject({
          sent: false,
          retry: false,
          reason: expect.stringContaining('132000'),
        });
        const cancelled = whatsappTemplateMessage(
          'booking-cancelled',
          {
            module: 'Statistics',
            time: 'Tue, 08 Dec 2026, 14:00–15:00 SAST',
            reference: 'TB-X',
            path: 'student-dashboard',
          },
          '0821234567',
        );
        expect(await sender.send(cancelled)).toMatchObject({
          sent: false,
          retry: false,
          reason: expect.stringContaining('132001'),
        });
        // The language the templates were registered in is part of the name Meta looks up.
        const english = { ...confirmation(), template: { ...confirmation().template, language: { code: 'af' } } };
        expect(await senderOf().send(english)).toMatchObject({
          sent: false,
          retry: false,
          reason: expect.stringContaining('132001'),
        });
        expect(other.messages()).toEqual([]);
      } finally {
        await other.close();
      }
    });

    test('the connection dropped without an answer: retried', async () => {
      standin.refuse({ network: 'drop', times: 1 });
      expect(await senderOf().send(confirmation())).toMatchObject({
        sent: false,
        retry: true,
        reason: expect.stringMatching(/^Could not reach WhatsApp/),
      });
    });

    test('no answer within the time-out: retried, saying it may still be delivered', async () => {
      standin.refuse({ network: 'stall', times: 1 });
      const started = Date.now();
      const outcome = await senderOf({ timeoutMs: 300 }).send(confirmation());
      expect(outcome).toMatchObject({
        sent: false,
        retry: true,
        reason: expect.stringContaining('did not answer within 0.3 s'),
      });
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    test('the API unreachable (nothing listening): retried', async () => {
      const gone = await createWhatsAppStandin({ token, appSecret: 'app-secret' });
      await gone.close();
      expect(await createWhatsAppSender({ apiUrl: gone.url, token, phoneNumberId }).send(confirmation())).toMatchObject(
        {
          sent: false,
          retry: true,
          reason: expect.stringContaining('ECONNREFUSED'),
        },
      );
    });
  });
});

describe('the outcome of an answer, by its code before its status', () => {
  test('a code decides over the HTTP status; a template error with its data as text reads it', () => {
    expect(whatsAppOutcomeOf(500, { code: 131026 })).toMatchObject({ retry: false, gone: true });
    expect(whatsAppOutcomeOf(400, { code: 131016 })).toMatchObject({ retry: true });
    expect(
      whatsAppOutcomeOf(400, { code: 132012, message: 'Parameter format does not match', error_data: 'body' }),
    ).toEqual({
      sent: false,
      retry: false,
      reason:
        '132012: Parameter format does not match: body (the template is not registered, approved or filled as docs/whatsapp.md says)',
    });
  });
});
