import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { noticeListSchema } from '../../../common/notices.ts';
import {
  qaMessages,
  questionPageSchema,
  questionSchema,
  revealedAuthorsSchema,
  similarQuestionsSchema,
  type Question,
} from '../../../common/qa.ts';
import {
  createClient,
  createVerifiedUser,
  expectApiError,
  logIn,
  signInAs,
  startSmtpServer,
  startTestServer,
  type TestClient,
  type TestServer,
  type TestSmtpServer,
} from '../../test/harness.ts';

// Issue 39 §3: modules, similar questions, anonymity towards classmates, endorsement by staff.

let smtp: TestSmtpServer;
let server: TestServer;
let visitor: TestClient;
let admin: TestClient;
let tutor: TestClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url });
  visitor = createClient(server.url);
  admin = (await signInAs(server, 'admin', { name: 'Lerato Admin' })).client;
  tutor = (await signInAs(server, 'tutor', { name: 'Sipho Tutor', categories: ['Computer Science'] })).client;
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

async function newStudent(name: string) {
  const account = await createVerifiedUser(server, { name });
  return { ...account, client: await logIn(server, account) };
}

const put = (client: TestClient, path: string, body: unknown) =>
  client.request(path, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const token = () => `tok${crypto.randomUUID().slice(0, 8)}`;

async function ask(client: TestClient, fields: Record<string, unknown> = {}): Promise<Question> {
  const response = await client.post('/api/questions', {
    id: crypto.randomUUID(),
    title: 'How do I reverse a list in Python?',
    text: 'I tried `list.reverse()`.',
    ...fields,
  });
  expect(response.status, response.text).toBe(201);
  return questionSchema.parse(response.body);
}

const read = async (id: string, client: TestClient) => {
  const response = await client.get(`/api/questions/${id}`);
  expect(response.status, response.text).toBe(200);
  return questionSchema.parse(response.body);
};

const page = async (client: TestClient, query: string) => {
  const response = await client.get(`/api/questions?${query}`);
  expect(response.status, response.text).toBe(200);
  return questionPageSchema.parse(response.body);
};

describe('modules', () => {
  test('a question carries its module; the board filters by module and by "other"', async () => {
    const thandi = await newStudent('Thandi Mokoena');
    const word = token();
    const java = await ask(thandi.client, { title: `Java ${word}`, module: 'java-oop-and-gui' });
    expect(java.module).toEqual({ slug: 'java-oop-and-gui', name: 'Java OOP and GUI' });
    const other = await ask(thandi.client, { title: `Other ${word}` });
    expect(other.module).toBeNull();
    expect((await page(visitor, `q=${word}&module=java-oop-and-gui`)).questions.map((q) => q.id)).toEqual([java.id]);
    expect((await page(visitor, `q=${word}&module=other`)).questions.map((q) => q.id)).toEqual([other.id]);
    expect((await page(visitor, `q=${word}`)).questions.map((q) => q.id)).toEqual([other.id, java.id]);
    // Without a search: the module's index, newest first.
    const latest = await page(visitor, 'module=java-oop-and-gui');
    expect(latest.questions[0]!.id).toBe(java.id);
    expect(latest.questions.every((q) => q.module?.slug === 'java-oop-and-gui')).toBe(true);
  });

  test('a module the catalogue does not hold is refused in words; `since` cannot be mixed with a module', async () => {
    const thandi = await newStudent('Thandi Mokoena');
    const response = await thandi.client.post('/api/questions', {
      id: crypto.randomUUID(),
      title: 'A title',
      text: 'A text',
      module: 'no-such-module',
    });
    expectApiError(response, 400, 'qa.unknown_module');
    expect(response.body.error.message).toBe(qaMessages.unknownModule);
    expect((await visitor.get('/api/questions?since=0&module=other')).status).toBe(400);
  });
});

describe('similar questions', () => {
  test('the questions most like a title come first, with their answer counts and no author', async () => {
    const thandi = await newStudent('Thandi Mokoena');
    const word = token();
    const both = await ask(thandi.client, { title: `Recursion ${word} overflow in Java`, anonymous: true });
    const one = await ask(thandi.client, { title: `Why does ${word} happen?`, text: 'No idea.' });
    await ask(thandi.client, { title: 'Something else entirely', text: 'Nothing alike.' });
    await tutor.post(`/api/questions/${both.id}/answers`, { id: crypto.randomUUID(), text: 'Base case.' });
    const response = await visitor.get(`/api/questions/similar?title=${encodeURIComponent(`${word} recursion`)}`);
    expect(response.status, response.text).toBe(200);
    const { questions } = similarQuestionsSchema.parse(response.body);
    expect(questions.slice(0, 2).map((q) => q.id)).toEqual([both.id, one.id]);
    expect(questions[0]).toEqual({ id: both.id, title: both.title, answerCount: 1, module: null });
    expect(response.text).not.toContain('Thandi');
  });

  test('a short title or one of common words finds nothing; a title over the limit is refused', async () => {
    const short = await visitor.get('/api/questions/similar?title=java');
    expect(similarQuestionsSchema.parse(short.body).questions).toEqual([]);
    const common = await visitor.get(`/api/questions/similar?title=${encodeURIComponent('what should this be')}`);
    expect(similarQuestionsSchema.parse(common.body).questions).toEqual([]);
    expect((await visitor.get(`/api/questions/similar?title=${'a'.repeat(201)}`)).status).toBe(400);
  });
});

describe('anonymous questions', () => {
  test('visitors and classmates see "Anonymous student"; tutors, the admin and the asker see the name', async () => {
    const naledi = await newStudent('Naledi Asker');
    const classmate = await newStudent('Bongani Classmate');
    const word = token();
    const asked = await ask(naledi.client, { title: `Shy ${word}`, anonymous: true });
    expect(asked).toMatchObject({ anonymous: true, author: { id: null, name: qaMessages.anonymousStudent } });
    expect(asked.revealed).toMatchObject({ mine: true, author: { name: 'Naledi Asker' } });

    for (const reader of [visitor, classmate.client]) {
      const seen = await read(asked.id, reader);
      expect(seen.author).toEqual({ id: null, name: qaMessages.anonymousStudent, role: 'student' });
      expect(seen.revealed).toBeUndefined();
      const listed = await page(reader, `q=${word}`);
      expect(listed.questions[0]!.revealed).toBeUndefined();
      const changes = await reader.get('/api/questions?since=0');
      // Neither the name nor the account's id, anywhere in what a classmate's device may keep.
      for (const text of [JSON.stringify(seen), JSON.stringify(listed), changes.text]) {
        expect(text).not.toContain('Naledi Asker');
        expect(text).not.toContain(naledi.id);
      }
    }
    for (const staff of [tutor, admin]) {
      const seen = await read(asked.id, staff);
      expect(seen.author.name).toBe(qaMessages.anonymousStudent);
      expect(seen.revealed).toEqual({ mine: false, author: { id: naledi.id, name: 'Naledi Asker', role: 'student' } });
    }
    expect((await read(asked.id, naledi.client)).revealed?.mine).toBe(true);

    // A device that has just logged in learns the names it may show, and only those.
    const revealedTo = async (client: TestClient) =>
      revealedAuthorsSchema.parse((await client.get('/api/questions/revealed')).body).revealed;
    expect(await revealedTo(tutor)).toContainEqual({
      questionId: asked.id,
      mine: false,
      author: { id: naledi.id, name: 'Naledi Asker', role: 'student' },
    });
    expect(await revealedTo(naledi.client)).toEqual([
      { questionId: asked.id, mine: true, author: { id: naledi.id, name: 'Naledi Asker', role: 'student' } },
    ]);
    expect(await revealedTo(classmate.client)).toEqual([]);
    expectApiError(await visitor.get('/api/questions/revealed'), 401, 'auth.unauthenticated');
  });

  test("the asker's own answer on her question names her to nobody, nor does its notice to followers", async () => {
    const naledi = await newStudent('Naledi Asker');
    const classmate = await newStudent('Bongani Classmate');
    const asked = await ask(naledi.client, { anonymous: true });
    await put(classmate.client, `/api/questions/${asked.id}/follow`, { following: true });
    const answerId = crypto.randomUUID();
    const sent = await naledi.client.post(`/api/questions/${asked.id}/answers`, { id: answerId, text: 'Solved it.' });
    expect(sent.body).toMatchObject({ byAsker: true, author: { id: null, name: qaMessages.anonymousStudent } });
    for (const reader of [visitor, classmate.client, tutor]) {
      const answer = (await read(asked.id, reader)).answers[0]!;
      expect(answer).toMatchObject({ id: answerId, byAsker: true, author: { name: qaMessages.anonymousStudent } });
    }
    await expect
      .poll(async () => noticeListSchema.parse((await classmate.client.get('/api/notices')).body).notices.length)
      .toBeGreaterThan(0);
    const notices = (await classmate.client.get('/api/notices')).text;
    expect(notices).toContain('Anonymous student answered');
    expect(notices).not.toContain('Naledi');
    // Another's answer keeps its name.
    await tutor.post(`/api/questions/${asked.id}/answers`, { id: crypto.randomUUID(), text: 'Well done.' });
    expect((await read(asked.id, visitor)).answers[1]!.author.name).toBe('Sipho Tutor');
  });

  test('the asker still accepts an answer, and the answerer is not told her name', async () => {
    const naledi = await newStudent('Naledi Asker');
    const classmate = await newStudent('Bongani Classmate');
    const asked = await ask(naledi.client, { anonymous: true });
    const answerId = crypto.randomUUID();
    await classmate.client.post(`/api/questions/${asked.id}/answers`, { id: answerId, text: 'Slice it.' });
    const accepted = await put(naledi.client, `/api/questions/${asked.id}/accepted-answer`, { answerId });
    expect(accepted.status, accepted.text).toBe(200);
    const notices = noticeListSchema.parse((await classmate.client.get('/api/notices')).body).notices;
    const notice = notices.find((n) => n.kind === 'answer-accepted');
    expect(notice?.body).toContain('The person who asked');
    expect(JSON.stringify(notices)).not.toContain('Naledi');
  });

  test("the asker's export holds her anonymous question; her deletion leaves it without anyone behind it", async () => {
    const naledi = await newStudent('Naledi Asker');
    const asked = await ask(naledi.client, { anonymous: true, module: 'introduction-to-statistics' });
    const exported = await naledi.client.get('/api/me/export');
    expect(exported.status).toBe(200);
    expect(exported.text).toContain(asked.id);
    expect(exported.body.questions).toContainEqual(
      expect.objectContaining({ id: asked.id, anonymous: true, moduleSlug: 'introduction-to-statistics' }),
    );
    expect((await naledi.client.delete('/api/me')).status).toBe(200);
    const seen = await read(asked.id, admin);
    expect(seen.revealed?.author).toEqual({ id: null, name: qaMessages.deletedUser, role: null });
  });
});

describe('endorsing an answer', () => {
  test('a tutor or the admin endorses; it is marked, its author told, and sending it twice changes nothing', async () => {
    const thandi = await newStudent('Thandi Mokoena');
    const answerer = await newStudent('Zanele Answerer');
    const asked = await ask(thandi.client);
    const first = crypto.randomUUID();
    const second = crypto.randomUUID();
    await answerer.client.post(`/api/questions/${asked.id}/answers`, { id: first, text: 'First.' });
    await answerer.client.post(`/api/questions/${asked.id}/answers`, { id: second, text: 'Second.' });
    const path = `/api/questions/${asked.id}/answers/${second}/endorsement`;
    const endorsed = await put(tutor, path, { endorsed: true });
    expect(endorsed.status, endorsed.text).toBe(200);
    const after = questionSchema.parse(endorsed.body);
    expect(after.answers.find((a) => a.id === second)?.endorsed).toBe(true);
    expect(after.answers.find((a) => a.id === first)?.endorsed).toBe(false);
    expect((await put(admin, path, { endorsed: true })).status).toBe(200);
    const notices = noticeListSchema.parse((await answerer.client.get('/api/notices')).body).notices;
    expect(notices.filter((n) => n.kind === 'answer-endorsed')).toEqual([
      expect.objectContaining({ body: `Sipho Tutor endorsed your answer to “${asked.title}”.` }),
    ]);
    const withdrawn = questionSchema.parse((await put(admin, path, { endorsed: false })).body);
    expect(withdrawn.answers.find((a) => a.id === second)?.endorsed).toBe(false);
  });

  test('a student, even the asker, is refused (403); a visitor is asked to log in (401)', async () => {
    const thandi = await newStudent('Thandi Mokoena');
    const asked = await ask(thandi.client);
    const answerId = crypto.randomUUID();
    await tutor.post(`/api/questions/${asked.id}/answers`, { id: answerId, text: 'An answer.' });
    const path = `/api/questions/${asked.id}/answers/${answerId}/endorsement`;
    const refused = await put(thandi.client, path, { endorsed: true });
    expectApiError(refused, 403, 'qa.not_staff');
    expect(refused.body.error.message).toBe(qaMessages.endorseNotStaff);
    expectApiError(await put(visitor, path, { endorsed: true }), 401, 'auth.unauthenticated');
    expect((await read(asked.id, visitor)).answers[0]!.endorsed).toBe(false);
    // An answer to another question is not found.
    const other = await ask(thandi.client);
    expectApiError(
      await put(tutor, `/api/questions/${other.id}/answers/${answerId}/endorsement`, { endorsed: true }),
      404,
      'qa.answer_not_found',
    );
  });
});
