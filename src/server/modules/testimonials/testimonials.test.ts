import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testimonialSeed } from '../../../common/testimonials-seed.ts';
import {
  testimonialLimits,
  testimonialMessages,
  testimonialSchema,
  type CreateTestimonialInput,
  type Testimonial,
} from '../../../common/testimonials.ts';
import { textMessages } from '../../../common/validation.ts';
import type { BusMessage } from '../../events/events.ts';
import {
  createClient,
  expectApiError,
  signInAs,
  startSmtpServer,
  startTestServer,
  waitFor,
  type TestClient,
  type TestServer,
  type TestSmtpServer,
} from '../../test/harness.ts';
import { storedRows } from '../../test/stored.ts';

let smtp: TestSmtpServer;
let server: TestServer;
let admin: TestClient;
let visitor: TestClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url });
  admin = (await signInAs(server, 'admin', { name: 'Lerato Admin' })).client;
  visitor = createClient(server.url);
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

let counter = 0;
function newTestimonial(overrides: Partial<CreateTestimonialInput> = {}): CreateTestimonialInput {
  counter += 1;
  return {
    name: `Student ${counter} ${crypto.randomUUID().slice(0, 6)}`,
    course: 'COMP201',
    quote: 'Recursion finally clicked: we traced every call on paper together.',
    ...overrides,
  };
}

async function addTestimonial(overrides: Partial<CreateTestimonialInput> = {}): Promise<Testimonial> {
  const response = await admin.post('/api/testimonials', newTestimonial(overrides));
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const shown = async () => (await visitor.get('/api/testimonials')).body.testimonials as Testimonial[];
const everyOne = async () => (await admin.get('/api/testimonials/all')).body.testimonials as Testimonial[];

/** Runs `refused` and checks that it left the testimonials exactly as they were. */
async function expectNothingChanged<T>(refused: () => Promise<T>): Promise<T> {
  const before = await storedRows(server.services, 'testimonials');
  const result = await refused();
  expect(await storedRows(server.services, 'testimonials')).toEqual(before);
  return result;
}

describe('the testimonials as seeded', () => {
  test('a visitor sees the twelve quotes of the site, word for word and in order', async () => {
    // Read before any test adds one: the seed alone.
    const response = await visitor.get('/api/testimonials');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const testimonials: Testimonial[] = response.body.testimonials;
    expect(testimonials.map(({ name, course, quote }) => ({ name, course, quote }))).toEqual(testimonialSeed);
    expect(testimonials.map((t) => t.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    for (const testimonial of testimonials) {
      expect(testimonialSchema.parse(testimonial)).toEqual(testimonial);
      expect(testimonial.hidden).toBe(false);
      expect(testimonial.id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  test('the list is answered with an ETag, and asked again unchanged it is a 304 without a body', async () => {
    const first = await visitor.get('/api/testimonials');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const again = await visitor.get('/api/testimonials', { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });
});

describe('who may curate the testimonials', () => {
  const roles = [
    { who: 'a visitor', status: 401, code: 'auth.unauthenticated', signIn: async () => createClient(server.url) },
    {
      who: 'a student',
      status: 403,
      code: 'auth.forbidden',
      signIn: async () => (await signInAs(server, 'student')).client,
    },
    {
      who: 'a tutor',
      status: 403,
      code: 'auth.forbidden',
      signIn: async () => (await signInAs(server, 'tutor', { categories: ['Mathematics'] })).client,
    },
  ];

  test.each(roles)(
    '$who cannot list them all, add, edit, hide or move one, and nothing changes',
    async ({ status, code, signIn }) => {
      const client = await signIn();
      const target = await addTestimonial({ hidden: true });
      await expectNothingChanged(async () => {
        expectApiError(await client.get('/api/testimonials/all'), status, code);
        expectApiError(await client.post('/api/testimonials', newTestimonial()), status, code);
        // Refused before the body is read: an invalid body gets the same answer.
        expectApiError(await client.post('/api/testimonials', { name: '' }), status, code);
        expectApiError(await client.patch(`/api/testimonials/${target.id}`, { quote: 'Taken over.' }), status, code);
        expectApiError(await client.patch(`/api/testimonials/${target.id}`, { hidden: false }), status, code);
        expectApiError(await client.post(`/api/testimonials/${target.id}/move`, { position: 0 }), status, code);
      });
      // The hidden one is not among what everyone reads.
      expect((await client.get('/api/testimonials')).body.testimonials.map((t: Testimonial) => t.id)).not.toContain(
        target.id,
      );
    },
  );

  test('a change sent from another site is refused, even with the admin’s session cookie', async () => {
    const target = await addTestimonial();
    await expectNothingChanged(async () => {
      const response = await admin.patch(
        `/api/testimonials/${target.id}`,
        { quote: 'Forged.' },
        { headers: { origin: 'https://evil.example' } },
      );
      expect(response.status).toBe(403);
    });
  });
});

describe('the admin curates the testimonials', () => {
  test('a testimonial added goes last on the public list, as typed but trimmed', async () => {
    const before = await everyOne();
    const added = await addTestimonial({ name: '  Busisiwe Nkosi ', course: ' MATHS130 ', quote: ' Calm and clear. ' });
    expect(added).toMatchObject({
      name: 'Busisiwe Nkosi',
      course: 'MATHS130',
      quote: 'Calm and clear.',
      hidden: false,
    });
    expect(added.position).toBeGreaterThan(before.at(-1)!.position);
    expect((await shown()).at(-1)).toEqual(added);
    expect((await everyOne()).at(-1)).toEqual(added);
  });

  test('an edited quote is what everyone reads next, and the ETag changes with it', async () => {
    const target = (await shown())[0]!;
    const etag = (await visitor.get('/api/testimonials')).headers.get('etag')!;
    const response = await admin.patch(`/api/testimonials/${target.id}`, { quote: 'Edited by the admin.\nTwo lines.' });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      id: target.id,
      name: target.name,
      quote: 'Edited by the admin.\nTwo lines.',
    });
    expect(response.body.updatedAt > target.updatedAt).toBe(true);
    const again = await visitor.get('/api/testimonials', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(200);
    expect(again.body.testimonials[0]).toEqual(response.body);
    await admin.patch(`/api/testimonials/${target.id}`, { quote: target.quote });
  });

  test('a hidden testimonial leaves the public list and stays on the admin’s; shown again, it is back in its place', async () => {
    const target = (await shown())[2]!;
    const hidden = await admin.patch(`/api/testimonials/${target.id}`, { hidden: true });
    expect(hidden.body.hidden).toBe(true);
    expect((await shown()).map((t) => t.id)).not.toContain(target.id);
    expect((await everyOne()).find((t) => t.id === target.id)).toEqual(hidden.body);
    const back = await admin.patch(`/api/testimonials/${target.id}`, { hidden: false });
    expect((await shown())[2]).toEqual(back.body);
  });

  test('a testimonial added hidden is on the admin’s list only', async () => {
    const added = await addTestimonial({ hidden: true });
    expect((await shown()).map((t) => t.id)).not.toContain(added.id);
    expect((await everyOne()).map((t) => t.id)).toContain(added.id);
  });

  test('moving one up, down, to the top and past the end changes the order everyone reads', async () => {
    const ids = async () => (await everyOne()).map((t) => t.id);
    const start = await ids();
    const [a, b, c] = start;
    const move = async (id: string, position: number) => {
      const response = await admin.post(`/api/testimonials/${id}/move`, { position });
      expect(response.status, response.text).toBe(200);
      return (response.body.testimonials as Testimonial[]).map((t) => t.id);
    };
    // Down one: b and a swap.
    expect((await move(a!, 1)).slice(0, 3)).toEqual([b, a, c]);
    // Up one: back as it was.
    expect(await move(a!, 0)).toEqual(start);
    // Past the end is the end.
    expect((await move(a!, testimonialLimits.positionMax)).at(-1)).toBe(a);
    expect(await ids()).toEqual([...start.slice(1), a]);
    // Positions are numbered afresh, and the public list follows (hidden ones left out).
    const all = await everyOne();
    expect(all.map((t) => t.position)).toEqual(all.map((_, i) => i));
    expect((await shown()).map((t) => t.id)).toEqual(all.filter((t) => !t.hidden).map((t) => t.id));
    await move(a!, 0);
    expect(await ids()).toEqual(start);
  });

  test('two moves at once are made one after the other: the order stays whole, numbered 0, 1, 2…', async () => {
    const all = await everyOne();
    const responses = await Promise.all([
      admin.post(`/api/testimonials/${all[0]!.id}/move`, { position: 5 }),
      admin.post(`/api/testimonials/${all[1]!.id}/move`, { position: 7 }),
      admin.post(`/api/testimonials/${all[2]!.id}/move`, { position: 0 }),
    ]);
    for (const response of responses) expect(response.status, response.text).toBe(200);
    const after = await everyOne();
    expect(after.map((t) => t.position)).toEqual(after.map((_, i) => i));
    expect(new Set(after.map((t) => t.id))).toEqual(new Set(all.map((t) => t.id)));
  });

  test('editing, hiding or moving one that does not exist is Testimonial not found', async () => {
    for (const id of [crypto.randomUUID(), 'a%2Fb', '__proto__']) {
      const notFound = expectApiError(
        await admin.patch(`/api/testimonials/${id}`, { quote: 'Nobody.' }),
        404,
        'testimonials.not_found',
      );
      expect(notFound.message).toBe(testimonialMessages.notFound);
      expectApiError(await admin.patch(`/api/testimonials/${id}`, { hidden: true }), 404, 'testimonials.not_found');
      expectApiError(await admin.post(`/api/testimonials/${id}/move`, { position: 0 }), 404, 'testimonials.not_found');
    }
  });

  test('each change is announced on the event bus, to everyone, once committed', async () => {
    const heard: BusMessage[] = [];
    const stop = server.services.bus.subscribe((message) => void heard.push(message));
    try {
      const added = await addTestimonial();
      await admin.patch(`/api/testimonials/${added.id}`, { hidden: true });
      await admin.post(`/api/testimonials/${added.id}/move`, { position: 0 });
      const notice = {
        type: 'notice',
        event: { table: 'testimonials', ids: [added.id], audience: 'everyone', id: expect.any(String) },
      };
      const about = () => heard.filter((m) => m.type === 'notice' && m.event.ids.includes(added.id));
      await waitFor(async () => about().length >= 3, 'three notices');
      expect(about()).toEqual([notice, notice, notice]);
    } finally {
      stop();
    }
  });
});

describe('what is refused, with a message that says why', () => {
  const long = (n: number) => 'x'.repeat(n);
  const cases: [what: string, body: unknown, field: string, message: string][] = [
    ['no name', { course: 'COMP102', quote: 'Good.' }, 'name', testimonialMessages.nameRequired],
    ['a blank name', { name: '   ', course: 'COMP102', quote: 'Good.' }, 'name', testimonialMessages.nameRequired],
    ['no course', { name: 'Sipho', quote: 'Good.' }, 'course', testimonialMessages.courseRequired],
    ['no quote', { name: 'Sipho', course: 'COMP102' }, 'quote', testimonialMessages.quoteRequired],
    ['an empty quote', { name: 'Sipho', course: 'COMP102', quote: ' \n ' }, 'quote', testimonialMessages.quoteRequired],
    [
      'a name too long',
      { name: long(testimonialLimits.nameMax + 1), course: 'COMP102', quote: 'Good.' },
      'name',
      testimonialMessages.nameTooLong,
    ],
    [
      'a course too long',
      { name: 'Sipho', course: long(testimonialLimits.courseMax + 1), quote: 'Good.' },
      'course',
      testimonialMessages.courseTooLong,
    ],
    [
      'a quote too long',
      { name: 'Sipho', course: 'COMP102', quote: long(testimonialLimits.quoteMax + 1) },
      'quote',
      testimonialMessages.quoteTooLong,
    ],
    [
      'a name on two lines',
      { name: 'Sipho\nRef: 123', course: 'COMP102', quote: 'Good.' },
      'name',
      textMessages.oneLine,
    ],
    [
      'a quote with a control character',
      { name: 'Sipho', course: 'COMP102', quote: 'Good\u0000.' },
      'quote',
      textMessages.multiLine,
    ],
    [
      'hidden that is not true or false',
      { name: 'Sipho', course: 'COMP102', quote: 'Good.', hidden: 'yes' },
      'hidden',
      testimonialMessages.hiddenNotBoolean,
    ],
    [
      'a field it does not know',
      { name: 'Sipho', course: 'COMP102', quote: 'Good.', rating: 5 },
      '_form',
      'Unknown field: rating.',
    ],
  ];

  test.each(cases)('adding with %s: 400 and nothing added', async (_what, body, field, message) => {
    const error = await expectNothingChanged(async () =>
      expectApiError(await admin.post('/api/testimonials', body), 400, 'request.invalid'),
    );
    expect(error.fields?.[field]).toBe(message);
    expect(error.message).toBe(message);
  });

  test('the limits themselves are accepted', async () => {
    const added = await addTestimonial({
      name: long(testimonialLimits.nameMax),
      course: long(testimonialLimits.courseMax),
      quote: long(testimonialLimits.quoteMax),
    });
    expect(added.quote).toHaveLength(testimonialLimits.quoteMax);
  });

  test('an edit with nothing in it, or a wrong field, is refused and changes nothing', async () => {
    const target = (await everyOne())[0]!;
    await expectNothingChanged(async () => {
      const nothing = expectApiError(await admin.patch(`/api/testimonials/${target.id}`, {}), 400, 'request.invalid');
      expect(nothing.message).toBe(testimonialMessages.nothingToChange);
      const tooLong = expectApiError(
        await admin.patch(`/api/testimonials/${target.id}`, { quote: long(testimonialLimits.quoteMax + 1) }),
        400,
        'request.invalid',
      );
      expect(tooLong.fields?.quote).toBe(testimonialMessages.quoteTooLong);
      const blank = expectApiError(
        await admin.patch(`/api/testimonials/${target.id}`, { name: '' }),
        400,
        'request.invalid',
      );
      expect(blank.fields?.name).toBe(testimonialMessages.nameRequired);
      expectApiError(await admin.patch(`/api/testimonials/${target.id}`, { name: null }), 400, 'request.invalid');
    });
  });

  test.each([[-1], [1.5], ['2'], [null], [testimonialLimits.positionMax + 1]])(
    'a move to position %j is refused and changes nothing',
    async (position) => {
      const target = (await everyOne())[0]!;
      const error = await expectNothingChanged(async () =>
        expectApiError(await admin.post(`/api/testimonials/${target.id}/move`, { position }), 400, 'request.invalid'),
      );
      expect(error.fields?.position).toBe(testimonialMessages.position);
    },
  );

  test('a body that is not JSON, or not declared as JSON, is refused and nothing is added', async () => {
    await expectNothingChanged(async () => {
      const malformed = await admin.request('/api/testimonials', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name": "Sipho",',
      });
      expectApiError(malformed, 400, 'request.malformed_json');
      const text = await admin.request('/api/testimonials', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify(newTestimonial()),
      });
      expectApiError(text, 400, 'request.unsupported_content_type');
    });
  });
});
