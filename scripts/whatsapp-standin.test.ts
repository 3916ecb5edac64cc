import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { createWhatsAppStandin, type RecordedMessage } from './whatsapp-standin.ts';

/** A template message as Meta documents it, for the stand-in's own checks (the app's are in src/server/whatsapp). */
const accepted = (to: string, question = 'Why?') => ({
  messaging_product: 'whatsapp',
  recipient_type: 'individual',
  to,
  type: 'template',
  template: {
    name: 'tutorbook_answer_accepted',
    language: { code: 'en' },
    components: [
      { type: 'body', parameters: [{ type: 'text', text: question }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'qa/1' }] },
    ],
  },
});

const post = (url: string, body: unknown, token = 'tok') =>
  fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

test('from another process: refused, then read, then a status sent, through /stand-in/', async () => {
  const standin = await createWhatsAppStandin({ token: 'tok', appSecret: 'secret' });
  try {
    expect((await post(`${standin.url}/stand-in/refuse`, { status: 503, times: 1 })).status).toBe(200);
    expect((await post(`${standin.url}/1/messages`, accepted('27821234567'))).status).toBe(503);
    const answer = (await (await post(`${standin.url}/1/messages`, accepted('27821234567'))).json()) as {
      messages: { id: string }[];
      contacts: { wa_id: string }[];
    };
    expect(answer.contacts).toEqual([{ input: '27821234567', wa_id: '27821234567' }]);
    await post(`${standin.url}/1/messages`, accepted('27831234567', 'Other?'));
    const mine = (await (await fetch(`${standin.url}/stand-in/messages?to=27821234567`)).json()) as RecordedMessage[];
    expect(mine.map((m) => [m.id, m.text])).toEqual([
      [answer.messages[0]!.id, 'Your answer to "Why?" was accepted by the person who asked. Thank you for helping.'],
    ]);
    expect(standin.attempts().map((a) => a.status)).toEqual([503, 200, 200]);

    const bodies: string[] = [];
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        bodies.push(body);
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const sent = await post(`${standin.url}/stand-in/status`, {
        providerId: answer.messages[0]!.id,
        status: 'read',
        webhookUrl,
      });
      expect(await sent.json()).toEqual({ answered: 200 });
      expect(JSON.parse(bodies[0]!).entry[0].changes[0].value.statuses[0]).toMatchObject({
        id: answer.messages[0]!.id,
        status: 'read',
        recipient_id: '27821234567',
      });
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  } finally {
    await standin.close();
  }
});

test('told a webhook, each accepted message gets its sent and delivered statuses on its own', async () => {
  const statuses: string[] = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      statuses.push(JSON.parse(body).entry[0].changes[0].value.statuses[0].status);
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const standin = await createWhatsAppStandin({ token: 'tok', appSecret: 'secret', webhookUrl });
  try {
    expect((await post(`${standin.url}/1/messages`, accepted('27821234567'))).status).toBe(200);
    await expect.poll(() => statuses).toEqual(['sent', 'delivered']);
  } finally {
    await standin.close();
    await new Promise((resolve) => receiver.close(resolve));
  }
});

test('what Meta refuses, the stand-in refuses: no token, a bad body, a value with a line break', async () => {
  const standin = await createWhatsAppStandin({ token: 'tok', appSecret: 'secret' });
  try {
    const code = async (response: Response) =>
      [response.status, ((await response.json()) as { error: { code: number } }).error.code] as const;
    expect(await code(await post(`${standin.url}/1/messages`, accepted('27821234567'), 'wrong'))).toEqual([401, 190]);
    expect(await code(await post(`${standin.url}/1/messages`, { ...accepted('27821234567'), to: 'me' }))).toEqual([
      400, 100,
    ]);
    expect(await code(await post(`${standin.url}/1/messages`, accepted('27821234567', 'a\nb')))).toEqual([400, 132018]);
    expect(await code(await post(`${standin.url}/1/messages`, accepted('27821234567', ' ')))).toEqual([400, 100]);
    const noButton = accepted('27821234567');
    noButton.template.components.pop();
    expect(await code(await post(`${standin.url}/1/messages`, noButton))).toEqual([400, 132000]);
    expect(await code(await fetch(`${standin.url}/1/other`, { method: 'POST' }))).toEqual([400, 100]);
    expect(standin.messages()).toEqual([]);
  } finally {
    await standin.close();
  }
});
