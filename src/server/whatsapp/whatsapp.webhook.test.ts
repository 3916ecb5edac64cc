import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createWhatsAppStandin, type WhatsAppStandin } from '../../../scripts/whatsapp-standin.ts';
import { whatsappTemplateMessage } from './whatsapp.ts';
import { createWhatsAppSender } from './whatsapp.sender.ts';
import { isSignedWebhook, readStatuses, verifyWebhookSubscription } from './whatsapp.webhook.ts';

/**
 * The webhook's checks on what the Cloud API's stand-in (scripts/whatsapp-standin.ts) posts: a small server here
 * keeps each request's raw bytes and headers, as the route the notices core mounts will get them.
 */
const appSecret = 'the-app-secret';
let standin: WhatsAppStandin;
let receiver: Server;
let webhookUrl: string;
let received: { body: Buffer; signature: string | undefined }[] = [];
let providerId: string;

beforeAll(async () => {
  standin = await createWhatsAppStandin({ token: 't', appSecret });
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ body: Buffer.concat(chunks), signature: request.headers['x-hub-signature-256'] as string });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/whatsapp/webhook`;
  const outcome = await createWhatsAppSender({ apiUrl: standin.url, token: 't', phoneNumberId: '1' }).send(
    whatsappTemplateMessage(
      'answer-accepted',
      { question: 'How do I read a CSV file in Java?', path: 'qa/6f1c' },
      '0821234567',
    ),
  );
  if (!outcome.sent) throw new Error(outcome.reason);
  providerId = outcome.providerId;
});
afterAll(async () => {
  await standin.close();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(() => {
  received = [];
});

describe('the status webhook', () => {
  test('Meta’s subscription check gets its challenge back only with our verify token', () => {
    const check = { 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-me', 'hub.challenge': '1158201444' };
    expect(verifyWebhookSubscription(check, 'verify-me')).toBe('1158201444');
    expect(verifyWebhookSubscription(new URLSearchParams(check), 'verify-me')).toBe('1158201444');
    expect(verifyWebhookSubscription({ ...check, 'hub.verify_token': 'verify-m' }, 'verify-me')).toBeUndefined();
    expect(verifyWebhookSubscription({ ...check, 'hub.verify_token': undefined }, 'verify-me')).toBeUndefined();
    expect(verifyWebhookSubscription({ ...check, 'hub.mode': 'unsubscribe' }, 'verify-me')).toBeUndefined();
    expect(verifyWebhookSubscription({ ...check, 'hub.challenge': '' }, 'verify-me')).toBeUndefined();
    expect(verifyWebhookSubscription({ ...check, 'hub.challenge': '<script>x</script>' }, 'verify-me')).toBeUndefined();
    expect(verifyWebhookSubscription({}, 'verify-me')).toBeUndefined();
  });

  test('a status signed with the app secret passes, and reads as the message’s id, status and time', async () => {
    const at = new Date('2026-12-08T12:00:05Z');
    for (const status of ['sent', 'delivered', 'read'] as const)
      expect(await standin.sendStatus(providerId, status, webhookUrl, { at })).toBe(200);
    expect(received).toHaveLength(3);
    for (const { body, signature } of received) expect(isSignedWebhook(body, signature, appSecret)).toBe(true);
    expect(received.flatMap(({ body }) => readStatuses(JSON.parse(body.toString('utf8'))))).toEqual([
      { providerId, status: 'sent', at: '2026-12-08T12:00:05.000Z' },
      { providerId, status: 'delivered', at: '2026-12-08T12:00:05.000Z' },
      { providerId, status: 'read', at: '2026-12-08T12:00:05.000Z' },
    ]);
  });

  test('a failed status says why, with its code', async () => {
    await standin.sendStatus(providerId, 'failed', webhookUrl, {
      code: 131026,
      details: 'Message failed to send because the recipient is not a WhatsApp user',
    });
    const [{ body, signature }] = received as [(typeof received)[number]];
    expect(isSignedWebhook(body, signature, appSecret)).toBe(true);
    expect(readStatuses(JSON.parse(body.toString('utf8')))).toEqual([
      {
        providerId,
        status: 'failed',
        at: expect.any(String),
        error: '131026: Message undeliverable: Message failed to send because the recipient is not a WhatsApp user',
        errorCode: 131026,
      },
    ]);
  });

  test('forged, unsigned or changed after signing: refused', async () => {
    await standin.sendStatus(providerId, 'read', webhookUrl, { signWith: 'not-the-app-secret' });
    await standin.sendStatus(providerId, 'read', webhookUrl, { signWith: false });
    await standin.sendStatus(providerId, 'read', webhookUrl);
    const [forged, unsigned, genuine] = received as [
      (typeof received)[number],
      (typeof received)[number],
      (typeof received)[number],
    ];
    expect(forged.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(isSignedWebhook(forged.body, forged.signature, appSecret)).toBe(false);
    expect(unsigned.signature).toBeUndefined();
    expect(isSignedWebhook(unsigned.body, unsigned.signature, appSecret)).toBe(false);
    expect(isSignedWebhook(genuine.body, genuine.signature, appSecret)).toBe(true);
    // The same bytes re-serialised, or one byte changed, are not what Meta signed.
    const changed = Buffer.from(genuine.body.toString('utf8').replace('"read"', '"sent"'));
    expect(isSignedWebhook(changed, genuine.signature, appSecret)).toBe(false);
    const respaced = Buffer.from(JSON.stringify(JSON.parse(genuine.body.toString('utf8')), null, 1));
    expect(isSignedWebhook(respaced, genuine.signature, appSecret)).toBe(false);
    // Headers that are not a SHA-256 signature at all.
    const sha1 = `sha1=${createHmac('sha1', appSecret).update(genuine.body).digest('hex')}`;
    for (const header of [sha1, 'sha256=', 'sha256=xyz', genuine.signature!.slice(0, -2), '', null])
      expect(isSignedWebhook(genuine.body, header, appSecret), String(header)).toBe(false);
    // The header's case and spaces around it do not matter.
    expect(
      isSignedWebhook(genuine.body, ` ${genuine.signature!.toUpperCase().replace('SHA256=', 'sha256=')} `, appSecret),
    ).toBe(true);
  });

  test('what is not a status is left out: messages users send, statuses WhatsApp adds later, other payloads', () => {
    const value = (extra: object) => ({
      object: 'whatsapp_business_account',
      entry: [{ id: '1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', ...extra } }] }],
    });
    expect(
      readStatuses(value({ messages: [{ from: '27821234567', id: 'wamid.IN', timestamp: '1', type: 'text' }] })),
    ).toEqual([]);
    expect(
      readStatuses(
        value({
          statuses: [
            { id: 'wamid.A', status: 'deleted', timestamp: '1765195205' },
            { id: 'wamid.B', status: 'delivered', timestamp: 'yesterday' },
            { id: '', status: 'read', timestamp: '1765195205' },
            { id: 'wamid.C', status: 'read', timestamp: '1765195205' },
          ],
        }),
      ),
    ).toEqual([{ providerId: 'wamid.C', status: 'read', at: '2025-12-08T12:00:05.000Z' }]);
    for (const other of [null, 'text', 42, {}, { object: 'page', entry: [] }, { object: 'whatsapp_business_account' }])
      expect(readStatuses(other), JSON.stringify(other)).toEqual([]);
  });
});
