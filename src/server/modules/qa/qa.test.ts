import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  qaLimits,
  qaMessages,
  questionChangesSchema,
  questionPageSchema,
  questionSchema,
  type Question,
} from '../../../common/qa.ts';
import { covers, coversStamp, formatPosition, parsePosition } from '../../../common/positions.ts';
import { textMessages } from '../../../common/validation.ts';
import { accessChanged, type BusMessage } from '../../events/events.ts';
import {
  createClient,
  createVerifiedUser,
  expectApiError,
  logIn,
  signInAs,
  startSmtpServer,
  startTestServer,
  type TestClient,
  type TestResponse,
  type TestServer,
  type TestSmtpServer,
  waitFor,
  onFirestore,
  sqlVersion,
} from '../../test/harness.ts';
import { stampOf, storedVoteValues } from '../../test/stored.ts';
import { postHtmlVersion } from '../../../common/post-html.ts';
import { withTransaction } from '../../deps.ts';

let smtp: TestSmtpServer;
let server: TestServer;
let visitor: TestClient;
let admin: TestClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url });
  visitor = createClient(server.url);
  admin = (await signInAs(server, 'admin', { name: 'Lerato Admin' })).client;
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

/** A student of their own, so one test's posts never count against another's rate limit. */
async function newStudent(name = 'Thandi Mokoena') {
  const account = await createVerifiedUser(server, { name });
  return { ...account, client: await logIn(server, account) };
}

const put = (client: TestClient, path: string, body: unknown) =>
  client.request(path, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A word no other test uses, to find this test's questions by search. */
const token = () => `tok${crypto.randomUUID().slice(0, 8)}`;

async function ask(client: TestClient, fields: { title?: string; text?: string; id?: string } = {}): Promise<Question> {
  const response = await client.post('/api/questions', {
    id: crypto.randomUUID(),
    title: 'How do I reverse a list in Python?',
    text: 'I tried `list.reverse()`.',
    ...fields,
  });
  expect(response.status, response.text).toBe(201);
  return questionSchema.parse(response.body);
}

async function answer(client: TestClient, questionId: string, text = 'Use `reversed(xs)` or `xs[::-1]`.') {
  const response = await client.post(`/api/questions/${questionId}/answers`, { id: crypto.randomUUID(), text });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string };
}

const read = async (id: string, client = visitor) => {
  const response = await client.get(`/api/questions/${id}`);
  expect(response.status, response.text).toBe(200);
  return questionSchema.parse(response.body);
};

/** The votes as stored, for comparing with the counters the API shows. */
async function storedVotes(questionId: string) {
  const values = await storedVoteValues(server.services, questionId);
  return { upvotes: values.filter((v) => v === 1).length, downvotes: values.filter((v) => v === -1).length };
}

/** The board's committed position now, as `since` takes it. */
const boardPosition = async () => formatPosition(await server.services.deps.repos.qa.readPosition());

/** 1 when the question or answer is stored (a deleted question's tombstone too), 0 when not. */
const countRows = async (table: 'questions' | 'answers', id: string) => {
  const qa = server.services.deps.repos.qa;
  return (await (table === 'questions' ? qa.findQuestion(id) : qa.findAnswer(id))) ? 1 : 0;
};

describe('a visitor', () => {
  test('reads the board but is asked to log in, with the spec texts, to ask, answer or vote', async () => {
    const { client } = await newStudent();
    const question = await ask(client);

    expect((await visitor.get('/api/questions')).status).toBe(200);
    expect((await read(question.id)).myVote).toBe(0);

    const asked = await visitor.post('/api/questions', { id: crypto.randomUUID(), title: 'A title', text: 'A text' });
    expect(expectApiError(asked, 401, 'auth.unauthenticated').message).toBe(qaMessages.askSignedOut);
    const answered = await visitor.post(`/api/questions/${question.id}/answers`, {
      id: crypto.randomUUID(),
      text: 'An answer',
    });
    expect(expectApiError(answered, 401, 'auth.unauthenticated').message).toBe(qaMessages.answerSignedOut);
    const voted = await put(visitor, `/api/questions/${question.id}/vote`, { value: 1 });
    expect(expectApiError(voted, 401, 'auth.unauthenticated').message).toBe(qaMessages.voteSignedOut);
    expectApiError(
      await put(visitor, `/api/questions/${question.id}/accepted-answer`, { answerId: null }),
      401,
      'auth.unauthenticated',
    );
    expectApiError(await visitor.delete(`/api/questions/${question.id}`), 401, 'auth.unauthenticated');

    const after = await read(question.id);
    expect(after).toMatchObject({ answers: [], upvotes: 0, downvotes: 0, version: question.version });
  });
});

describe('asking', () => {
  test("a question is stored trimmed, with the author's name and role and never their e-mail", async () => {
    const student = await newStudent('Sipho Dlamini');
    const id = crypto.randomUUID();
    const response = await student.client.post('/api/questions', {
      id,
      title: '  What is Big-O?  ',
      text: '\n  Explain `O(n log n)`.\n',
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      id,
      title: 'What is Big-O?',
      text: 'Explain `O(n log n)`.',
      author: { id: student.id, name: 'Sipho Dlamini', role: 'student' },
      upvotes: 0,
      downvotes: 0,
      acceptedAnswerId: null,
      answers: [],
      myVote: 0,
    });
    expect(response.text).not.toContain(student.email);
    expect(await read(id)).toEqual({ ...response.body, myVote: 0 });
  });

  test.each([
    ['an empty title', { title: '', text: 'Some text' }],
    ['a blank title', { title: '   ', text: 'Some text' }],
    ['an empty description', { title: 'A title', text: '' }],
    ['a blank description', { title: 'A title', text: ' \n\t ' }],
  ])('%s is refused with the spec text', async (_, fields) => {
    const { client } = await newStudent();
    const id = crypto.randomUUID();
    const error = expectApiError(await client.post('/api/questions', { id, ...fields }), 400, 'request.invalid');
    expect(error.message).toBe(qaMessages.askIncomplete);
    expect(await countRows('questions', id)).toBe(0);
  });

  test('an over-long title or text is refused, and one at the limit is taken', async () => {
    const { client } = await newStudent();
    const longTitle = await client.post('/api/questions', {
      id: crypto.randomUUID(),
      title: 'x'.repeat(qaLimits.titleMax + 1),
      text: 'Text',
    });
    expect(expectApiError(longTitle, 400, 'request.invalid').message).toBe(qaMessages.titleTooLong(qaLimits.titleMax));
    const longText = await client.post('/api/questions', {
      id: crypto.randomUUID(),
      title: 'Title',
      text: 'x'.repeat(qaLimits.textMax + 1),
    });
    expect(expectApiError(longText, 400, 'request.invalid').message).toBe(qaMessages.textTooLong(qaLimits.textMax));
    await ask(client, { title: 'x'.repeat(qaLimits.titleMax), text: 'y'.repeat(qaLimits.textMax) });
  });

  test.each([
    ['a line break in the title', { title: 'Title\nSecond line', text: 'Text' }, textMessages.oneLine],
    ['a right-to-left override in the title', { title: 'Title \u202Etxet', text: 'Text' }, textMessages.oneLine],
    ['a NUL in the text', { title: 'Title', text: 'Text\u0000' }, textMessages.multiLine],
    ['a right-to-left isolate in the text', { title: 'Title', text: 'Text \u2067txet\u2069' }, textMessages.multiLine],
  ])('%s is refused, and nothing is stored', async (_, fields, message) => {
    const { client } = await newStudent();
    const id = crypto.randomUUID();
    const error = expectApiError(await client.post('/api/questions', { id, ...fields }), 400, 'request.invalid');
    expect(error.message).toBe(message);
    expect(await countRows('questions', id)).toBe(0);
  });

  test('a text keeps its line breaks and tabs (code), with Windows line breaks as a textarea gives them', async () => {
    const { client } = await newStudent();
    const question = await ask(client, {
      title: 'Indented code',
      text: 'Why?\r\n\n```python\r\nif x:\r\n\tpass\r\n```',
    });
    expect(question.text).toBe('Why?\n\n```python\nif x:\n\tpass\n```');
    const answer = await client.post(`/api/questions/${question.id}/answers`, {
      id: crypto.randomUUID(),
      text: 'Use four spaces \u0007',
    });
    expect(expectApiError(answer, 400, 'request.invalid').message).toBe(textMessages.multiLine);
  });

  test('a question id that is not a UUID, or an unknown field, is refused', async () => {
    const { client } = await newStudent();
    expectApiError(await client.post('/api/questions', { id: 'q1', title: 'T', text: 'X' }), 400, 'request.invalid');
    expectApiError(
      await client.post('/api/questions', { id: crypto.randomUUID(), title: 'T', text: 'X', upvotes: 99 }),
      400,
      'request.invalid',
    );
  });

  test('text that looks like SQL or HTML is stored and returned exactly as typed', async () => {
    const { client } = await newStudent();
    const title = `Robert'); DROP TABLE questions; -- ${token()}`;
    const text =
      '<script>alert("x")</script> <img src=x onerror=alert(1)> 100% _under_ back\\slash `code`\n\n```java\nint[][] grid;\n```';
    const question = await ask(client, { title, text });
    expect(question).toMatchObject({ title, text });
    expect(await read(question.id)).toMatchObject({ title, text });
    expect(
      (await visitor.get('/api/questions?q=' + encodeURIComponent("robert'); drop"))).body.questions.map(
        (q: Question) => q.id,
      ),
    ).toContain(question.id);
  });
});

describe('a post’s HTML', () => {
  test('is rendered once, as it is posted, and read as kept; one kept by an older pipeline is rendered afresh', async () => {
    const { client, id: studentId } = await newStudent();
    const { repos } = server.services.deps;
    const asked = await ask(client, { text: 'Is $\\int_0^1 x^2\\,dx = \\tfrac13$?\n\n```java\nint x = 1;\n```' });
    expect(asked.html).toContain('class="katex"');
    expect((await repos.qa.findBoardQuestion(asked.id))?.storedHtml).toEqual({
      html: asked.html,
      version: postHtmlVersion,
    });
    const { id: answerId } = await answer(client, asked.id, 'Yes: $\\tfrac{x^3}{3}$ from 0 to 1.');
    const kept = (await repos.qa.listAnswers([asked.id])).find((a) => a.id === answerId)?.storedHtml;
    expect(kept?.version).toBe(postHtmlVersion);
    expect((await read(asked.id)).answers[0]?.html).toBe(kept?.html);
    // What is kept stays the server's: the API sends the HTML, not the stored record.
    expect((await visitor.get(`/api/questions/${asked.id}`)).text).not.toContain('storedHtml');

    // What is kept is what readers get: a post kept by this pipeline is not rendered again, one kept by an
    // older pipeline is.
    const keep = (id: string, version: number) =>
      withTransaction(server.services.deps, async (tx) => {
        await tx.repos.qa.beginChanges();
        const [stamp] = await tx.repos.qa.takeStamps(1);
        await tx.repos.qa.insertQuestion({
          id,
          userId: studentId,
          title: 'Kept',
          text: 'Rendered *now*',
          searchText: 'kept\nrendered *now*',
          storedHtml: { html: '<p>As kept</p>', version },
          createdAt: new Date().toISOString(),
          stamp: stamp!,
        });
      });
    const [current, older] = [crypto.randomUUID(), crypto.randomUUID()];
    await keep(current, postHtmlVersion);
    await keep(older, postHtmlVersion - 1);
    expect((await read(current)).html).toBe('<p>As kept</p>');
    expect((await read(older)).html).toContain('<em>now</em>');
  });
});

describe('a post sent more than once', () => {
  test('the same question sent again (its answer was lost) creates nothing new and gets the stored question', async () => {
    const { client } = await newStudent();
    const body = { id: crypto.randomUUID(), title: 'Why is my loop infinite?', text: 'while (i < 10) {}' };
    const first = await client.post('/api/questions', body);
    expect(first.status).toBe(201);
    const again = await client.post('/api/questions', { ...body, title: `  ${body.title} ` });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await countRows('questions', body.id)).toBe(1);
  });

  test('the same id with another body, or from another user, is a conflict and changes nothing', async () => {
    const owner = await newStudent();
    const other = await newStudent();
    const question = await ask(owner.client);
    const changed = await owner.client.post('/api/questions', {
      id: question.id,
      title: question.title,
      text: 'Something else',
    });
    expect(expectApiError(changed, 409, 'qa.id_reused').message).toBe(qaMessages.idReused);
    expectApiError(
      await other.client.post('/api/questions', { id: question.id, title: question.title, text: question.text }),
      409,
      'qa.id_reused',
    );
    expect(await read(question.id)).toEqual({ ...question, myVote: 0 });
  });

  test('the same question sent five times at once is stored once, and every request succeeds', async () => {
    const { client } = await newStudent();
    const body = { id: crypto.randomUUID(), title: 'Sent from a flaky phone', text: 'Five times' };
    const responses = await Promise.all(Array.from({ length: 5 }, () => client.post('/api/questions', body)));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    for (const r of responses) expect(r.body.id).toBe(body.id);
    expect(await countRows('questions', body.id)).toBe(1);
  });

  test('an answer sent again gets the stored answer; another text or question under its id is a conflict', async () => {
    const asker = await newStudent();
    const helper = await newStudent('Ayanda Nkosi');
    const question = await ask(asker.client);
    const otherQuestion = await ask(asker.client);
    const body = { id: crypto.randomUUID(), text: 'Try a debugger.' };
    const first = await helper.client.post(`/api/questions/${question.id}/answers`, body);
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({
      id: body.id,
      questionId: question.id,
      text: body.text,
      author: { id: helper.id, name: 'Ayanda Nkosi', role: 'student' },
    });
    const again = await helper.client.post(`/api/questions/${question.id}/answers`, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expectApiError(
      await helper.client.post(`/api/questions/${question.id}/answers`, { ...body, text: 'Other' }),
      409,
      'qa.id_reused',
    );
    expectApiError(await helper.client.post(`/api/questions/${otherQuestion.id}/answers`, body), 409, 'qa.id_reused');
    expectApiError(await asker.client.post(`/api/questions/${question.id}/answers`, body), 409, 'qa.id_reused');
    const concurrent = { id: crypto.randomUUID(), text: 'Sent twice at once' };
    const both = await Promise.all(
      [1, 2].map(() => helper.client.post(`/api/questions/${question.id}/answers`, concurrent)),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 201]);
    expect((await read(question.id)).answers.map((a) => a.id)).toEqual([body.id, concurrent.id]);
  });
});

describe('answering', () => {
  test('answers are listed oldest first; an empty one is refused; an unknown question is not found', async () => {
    const asker = await newStudent();
    const tutor = await signInAs(server, 'tutor', { name: 'Nomsa Tutor' });
    const question = await ask(asker.client);
    const first = await answer(tutor.client, question.id, 'First');
    const second = await answer(asker.client, question.id, 'Second');
    const read1 = await read(question.id);
    expect(read1.answers.map((a) => [a.id, a.text, a.author.role])).toEqual([
      [first.id, 'First', 'tutor'],
      [second.id, 'Second', 'student'],
    ]);
    expect(read1.version).toBeGreaterThan(question.version);

    const empty = await asker.client.post(`/api/questions/${question.id}/answers`, {
      id: crypto.randomUUID(),
      text: '   ',
    });
    expect(expectApiError(empty, 400, 'request.invalid').message).toBe(qaMessages.answerEmpty);
    const unknown = await asker.client.post(`/api/questions/${crypto.randomUUID()}/answers`, {
      id: crypto.randomUUID(),
      text: 'Hello',
    });
    expect(expectApiError(unknown, 404, 'qa.not_found').message).toBe(qaMessages.notFound);
    expectApiError(await visitor.get(`/api/questions/${crypto.randomUUID()}`), 404, 'qa.not_found');
    expectApiError(await visitor.get('/api/questions/not-a-uuid'), 404, 'qa.not_found');
  });
});

describe('voting', () => {
  test('one vote per user: set, sent again, switched and withdrawn, with counts always equal to the stored votes', async () => {
    const asker = await newStudent();
    const a = await newStudent();
    const b = await newStudent();
    const question = await ask(asker.client);
    const vote = async (client: TestClient, value: number) => {
      const response = await put(client, `/api/questions/${question.id}/vote`, { value });
      expect(response.status, response.text).toBe(200);
      const body = questionSchema.parse(response.body);
      expect({ upvotes: body.upvotes, downvotes: body.downvotes }).toEqual(await storedVotes(question.id));
      return body;
    };

    expect(await vote(a.client, 1)).toMatchObject({ upvotes: 1, downvotes: 0, myVote: 1 });
    expect(await vote(a.client, 1)).toMatchObject({ upvotes: 1, downvotes: 0, myVote: 1 });
    expect(await vote(b.client, -1)).toMatchObject({ upvotes: 1, downvotes: 1, myVote: -1 });
    expect(await vote(a.client, -1)).toMatchObject({ upvotes: 0, downvotes: 2, myVote: -1 });
    expect(await vote(b.client, 0)).toMatchObject({ upvotes: 0, downvotes: 1, myVote: 0 });
    expect(await vote(b.client, 0)).toMatchObject({ upvotes: 0, downvotes: 1, myVote: 0 });

    const seenByA = await a.client.get(`/api/questions/${question.id}`);
    expect(seenByA.body.myVote).toBe(-1);
    expect(seenByA.headers.get('cache-control')).toBe('no-store');
    expect((await read(question.id)).myVote).toBe(0);

    expectApiError(await put(a.client, `/api/questions/${question.id}/vote`, { value: 2 }), 400, 'request.invalid');
    expectApiError(
      await put(a.client, `/api/questions/${crypto.randomUUID()}/vote`, { value: 1 }),
      404,
      'qa.not_found',
    );
  });

  test('twenty votes at once by different users all count', async () => {
    const asker = await newStudent();
    const question = await ask(asker.client);
    const voters = await Promise.all(Array.from({ length: 20 }, () => newStudent()));
    await Promise.all(
      voters.map((v, i) => put(v.client, `/api/questions/${question.id}/vote`, { value: i % 4 === 0 ? -1 : 1 })),
    );
    expect(await read(question.id)).toMatchObject({ upvotes: 15, downvotes: 5 });
    expect(await storedVotes(question.id)).toEqual({ upvotes: 15, downvotes: 5 });
  });
});

describe('accepting an answer', () => {
  test('only the asker accepts, only an answer to that question, and can take it back', async () => {
    const asker = await newStudent();
    const other = await newStudent();
    const question = await ask(asker.client);
    const elsewhere = await ask(asker.client);
    const good = await answer(other.client, question.id);
    const foreign = await answer(other.client, elsewhere.id);
    const path = `/api/questions/${question.id}/accepted-answer`;

    const refused = await put(other.client, path, { answerId: good.id });
    expect(expectApiError(refused, 403, 'qa.not_asker').message).toBe(qaMessages.acceptNotAsker);
    expectApiError(await put(admin, path, { answerId: good.id }), 403, 'qa.not_asker');
    const wrong = await put(asker.client, path, { answerId: foreign.id });
    expect(expectApiError(wrong, 404, 'qa.answer_not_found').message).toBe(qaMessages.answerNotFound);
    expectApiError(await put(asker.client, path, { answerId: crypto.randomUUID() }), 404, 'qa.answer_not_found');
    expect((await read(question.id)).acceptedAnswerId).toBeNull();

    const accepted = await put(asker.client, path, { answerId: good.id });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.acceptedAnswerId).toBe(good.id);
    expect((await put(asker.client, path, { answerId: null })).body.acceptedAnswerId).toBeNull();
  });
});

describe('the admin removing posts', () => {
  test('only the admin deletes a question; it leaves the board and `since` reports it as deleted', async () => {
    const asker = await newStudent();
    const tutor = await signInAs(server, 'tutor');
    const start = await boardPosition();
    const question = await ask(asker.client);
    // Firestore's shards have no order across them: there the walk starts from the position before the question.
    const before = onFirestore ? start : question.version - 1;

    expectApiError(await asker.client.delete(`/api/questions/${question.id}`), 403, 'auth.forbidden');
    expectApiError(await tutor.client.delete(`/api/questions/${question.id}`), 403, 'auth.forbidden');
    const deleted = await admin.delete(`/api/questions/${question.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ deleted: true });

    expectApiError(await visitor.get(`/api/questions/${question.id}`), 404, 'qa.not_found');
    expectApiError(await admin.delete(`/api/questions/${question.id}`), 404, 'qa.not_found');
    expectApiError(
      await asker.client.post(`/api/questions/${question.id}/answers`, { id: crypto.randomUUID(), text: 'Late' }),
      404,
      'qa.not_found',
    );
    const again = await asker.client.post('/api/questions', {
      id: question.id,
      title: question.title,
      text: question.text,
    });
    expectApiError(again, 404, 'qa.not_found');
    const listed = await visitor.get(`/api/questions?q=${encodeURIComponent(question.title)}`);
    expect(listed.body.questions.map((q: Question) => q.id)).not.toContain(question.id);

    const changes = await collectChanges(before);
    expect(changes.deleted).toContain(question.id);
    expect(changes.questions.has(question.id)).toBe(false);
  });

  test('only the admin deletes an answer; an accepted one is un-accepted and the question gets a new version', async () => {
    const asker = await newStudent();
    const helper = await newStudent();
    const question = await ask(asker.client);
    const spam = await answer(helper.client, question.id, 'Buy followers');
    const kept = await answer(helper.client, question.id, 'A real answer');
    await put(asker.client, `/api/questions/${question.id}/accepted-answer`, { answerId: spam.id });
    const version = (await read(question.id)).version;
    const since = onFirestore ? await boardPosition() : version;

    expectApiError(
      await helper.client.delete(`/api/questions/${question.id}/answers/${spam.id}`),
      403,
      'auth.forbidden',
    );
    expectApiError(
      await visitor.delete(`/api/questions/${question.id}/answers/${spam.id}`),
      401,
      'auth.unauthenticated',
    );
    expectApiError(
      await admin.delete(`/api/questions/${question.id}/answers/${crypto.randomUUID()}`),
      404,
      'qa.answer_not_found',
    );
    expect((await admin.delete(`/api/questions/${question.id}/answers/${spam.id}`)).body).toEqual({ deleted: true });

    const after = await read(question.id);
    expect(after.answers.map((a) => a.id)).toEqual([kept.id]);
    expect(after.acceptedAnswerId).toBeNull();
    expect(after.version).toBeGreaterThan(version);
    expect((await collectChanges(since)).questions.get(question.id)?.answers.map((a) => a.id)).toEqual([kept.id]);
  });
});

/** Walks `since` to the end: the latest state seen of each question, and the ids reported deleted. */
async function collectChanges(since: number | string, client = visitor) {
  const questions = new Map<string, Question>();
  const deleted: string[] = [];
  let version = since;
  let pages = 0;
  for (;;) {
    const response = await client.get(`/api/questions?since=${version}`);
    expect(response.status, response.text).toBe(200);
    const page = questionChangesSchema.parse(response.body);
    pages += 1;
    for (const q of page.questions) {
      // Changed after `version`: on SQL a higher version; on Firestore a stamp the position does not cover.
      const stamp = await stampOf(server.services, 'questions', q.id, q.version);
      expect(coversStamp(parsePosition(version)!, stamp), `${q.id} at ${q.version} after ${version}`).toBe(false);
      questions.set(q.id, q);
    }
    deleted.push(...page.deleted);
    expect(covers(parsePosition(page.version)!, parsePosition(version)!)).toBe(true);
    version = onFirestore ? page.version : sqlVersion(page.version);
    if (!page.more) return { questions, deleted, version, pages };
  }
}

describe('incremental sync (`since`)', () => {
  test('a reader polling during many concurrent writes misses no question and ends with every latest version', async () => {
    const { version: start } = await collectChanges(0);
    const writers = await Promise.all(Array.from({ length: 6 }, () => newStudent()));
    const seen = new Map<string, number>();
    let cursor: number | string = start;
    let writing = true;
    const poll = async () => {
      const page = questionChangesSchema.parse((await visitor.get(`/api/questions?since=${cursor}`)).body);
      for (const q of page.questions) seen.set(q.id, q.version);
      cursor = onFirestore ? page.version : sqlVersion(page.version);
      return page.more;
    };
    const poller = (async () => {
      while (writing) await poll();
    })();

    const asked: string[] = [];
    await Promise.all(
      writers.map(async (w, i) => {
        for (let n = 0; n < 8; n++) {
          const id = crypto.randomUUID();
          asked.push(id);
          const [posted] = await Promise.all([
            w.client.post('/api/questions', { id, title: `Concurrent ${i}-${n}`, text: 'Written while someone reads' }),
            asked.length > 1
              ? put(w.client, `/api/questions/${asked[asked.length - 2]}/vote`, { value: 1 })
              : undefined,
          ]);
          expect(posted.status, posted.text).toBe(201);
        }
      }),
    );
    writing = false;
    await poller;
    while (await poll());

    for (const id of asked) expect(seen.get(id), id).toBe((await read(id)).version);
    const walk = await collectChanges(start);
    expect([...walk.questions.keys()].sort()).toEqual([...asked].sort());
  });

  test('more than a page of changes comes in pages, each question once, in version order', async () => {
    const { version: start } = await collectChanges(0);
    // Six writers at once, each posting in turn as a device's outbox does (one user's twenty posts at once
    // contend for their rate limit: on Firestore some then get the 503 that the outbox retries).
    const writers = await Promise.all(Array.from({ length: 6 }, () => newStudent()));
    const ids = (
      await Promise.all(
        writers.map(async (w) => {
          const posted: string[] = [];
          for (let n = 0; n < 20; n++) posted.push((await ask(w.client)).id);
          return posted;
        }),
      )
    ).flat();
    const walk = await collectChanges(start);
    expect(walk.pages).toBe(2);
    expect([...walk.questions.keys()].sort()).toEqual([...ids].sort());
    expect((await visitor.get(`/api/questions?since=${walk.version}`)).body).toEqual({
      questions: [],
      deleted: [],
      version: walk.version,
      more: false,
    });
  });

  test('a since that is not a whole number, or mixed with a search, is refused with a message saying so', async () => {
    const sinceMessage = 'since must be a version: a whole number, 0 or more, or up to 64 of them joined by "-".';
    for (const since of ['abc', '-1', '1.5', '2147483648', '1-', '1--2', '01', '']) {
      const error = expectApiError(await visitor.get(`/api/questions?since=${since}`), 400, 'request.invalid');
      expect(error).toMatchObject({ message: sinceMessage, fields: { since: sinceMessage } });
    }
    const mixed = expectApiError(await visitor.get('/api/questions?since=1&q=java'), 400, 'request.invalid');
    expect(mixed.message).toBe('Ask for changes (since) or for a page (q, module, cursor), not both.');
  });

  test('a parameter the board does not know, or one given twice, is refused', async () => {
    expect(expectApiError(await visitor.get('/api/questions?sort=new'), 400, 'request.invalid').fields).toEqual({
      _form: 'Unknown field: sort.',
    });
    expect(
      expectApiError(await visitor.get('/api/questions?q=java&q=python'), 400, 'request.invalid').fields,
    ).toHaveProperty('q');
  });
});

describe("the board's pages and search", () => {
  test('45 questions come newest first in pages of 20, 20 and 5, the last with no next cursor', async () => {
    const word = token();
    const writers = await Promise.all(Array.from({ length: 3 }, () => newStudent()));
    const ids: string[] = [];
    for (let n = 0; n < 15; n++) {
      for (const w of writers) ids.push((await ask(w.client, { title: `Question ${ids.length} ${word}` })).id);
    }
    const pages: QuestionPageBody[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const response: TestResponse = await visitor.get(
        `/api/questions?q=${word}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(response.status, response.text).toBe(200);
      const page = questionPageSchema.parse(response.body);
      pages.push(page);
      cursor = page.nextCursor;
    }
    expect(pages.map((p) => p.questions.length)).toEqual([20, 20, 5]);
    expect(pages.flatMap((p) => p.questions.map((q) => q.id))).toEqual([...ids].reverse());
    expectApiError(await visitor.get('/api/questions?cursor=bm90LWEtY3Vyc29y'), 400, 'request.invalid');
    expectApiError(await visitor.get('/api/questions?cursor=%%%'), 400, 'request.invalid');
  });

  // A cursor is the last question's time and id; one naming an id no question can have (on Firestore a
  // document path it refuses with an error) was never given out, on any engine.
  test.each(['..', 'a/b', '__proto__', ''])('a cursor naming the question "%s" is refused in words', async (id) => {
    const cursor = Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', id])).toString('base64url');
    for (const q of ['', '&q=calculus']) {
      const error = expectApiError(await visitor.get(`/api/questions?cursor=${cursor}${q}`), 400, 'request.invalid');
      expect(error.fields).toEqual({ cursor: 'This page of questions cannot be found. Please reload the board.' });
    }
  });

  test('search finds the title or the text in any case, and % and _ match only themselves', async () => {
    const word = token();
    const { client } = await newStudent();
    const percent = await ask(client, { title: `Why 100% CPU ${word}`, text: 'It spins.' });
    const plain = await ask(client, { title: `Why 1000 CPU ${word}`, text: 'It spins too.' });
    const underscore = await ask(client, { title: `Naming ${word}`, text: 'Is MAX_VALUE a constant?' });
    const noUnderscore = await ask(client, { title: `Naming ${word} again`, text: 'Is MAXxVALUE a constant?' });
    const accented = await ask(client, { title: `ÉCOLE ${word}`, text: 'Über alles' });

    const search = async (q: string) => {
      const response = await visitor.get(`/api/questions?q=${encodeURIComponent(q)}`);
      expect(response.status, response.text).toBe(200);
      return (response.body.questions as Question[]).map((q) => q.id).sort();
    };
    expect(await search(`${word.toUpperCase()}`)).toEqual(
      [percent.id, plain.id, underscore.id, noUnderscore.id, accented.id].sort(),
    );
    expect(await search('100% cpu ' + word)).toEqual([percent.id]);
    expect(await search(`${word}`).then((all) => all.length)).toBe(5);
    expect((await search('max_value')).filter((id) => [underscore.id, noUnderscore.id].includes(id))).toEqual([
      underscore.id,
    ]);
    expect(await search(`école ${word}`)).toEqual([accented.id]);
    expect(await search('üBER ALLES')).toContain(accented.id);
    expect(await search(`  ${word}  `)).toHaveLength(5);
    expect(await search(`no-such-thing-${word}`)).toEqual([]);
  });
});

type QuestionPageBody = ReturnType<typeof questionPageSchema.parse>;

describe('the rate limit', () => {
  test(`a user may post ${qaLimits.postsPerWindow} questions and answers in ${qaLimits.rateWindowMinutes} minutes; a repeat of one still gets its answer`, async () => {
    const { client } = await newStudent();
    const first = await ask(client);
    const bodies = [];
    for (let n = 1; n < qaLimits.postsPerWindow; n++) {
      const body = { id: crypto.randomUUID(), text: `Answer ${n}` };
      bodies.push(body);
      expect((await client.post(`/api/questions/${first.id}/answers`, body)).status).toBe(201);
    }
    const id = crypto.randomUUID();
    const refused = await client.post('/api/questions', { id, title: 'One too many', text: 'Slow down' });
    expect(expectApiError(refused, 429, 'qa.rate_limited').message).toBe(qaMessages.rateLimited);
    expectApiError(
      await client.post(`/api/questions/${first.id}/answers`, { id: crypto.randomUUID(), text: 'Also too many' }),
      429,
      'qa.rate_limited',
    );
    expect(await countRows('questions', id)).toBe(0);

    expect((await client.post('/api/questions', { id: first.id, title: first.title, text: first.text })).status).toBe(
      200,
    );
    expect((await client.post(`/api/questions/${first.id}/answers`, bodies[0])).status).toBe(200);
    expect((await put(client, `/api/questions/${first.id}/vote`, { value: 1 })).status).toBe(200);
    expect(
      (
        await (
          await newStudent()
        ).client.post(`/api/questions/${first.id}/answers`, { id: crypto.randomUUID(), text: 'Someone else' })
      ).status,
    ).toBe(201);
  });
});

describe('my votes', () => {
  test('a signed-in user reads their own votes only; a visitor is refused', async () => {
    const me = await newStudent();
    const other = await newStudent();
    const [up, down, untouched] = [await ask(other.client), await ask(other.client), await ask(other.client)];
    await put(me.client, `/api/questions/${up.id}/vote`, { value: 1 });
    await put(me.client, `/api/questions/${down.id}/vote`, { value: -1 });
    await put(other.client, `/api/questions/${untouched.id}/vote`, { value: 1 });
    const mine = await me.client.get('/api/questions/my-votes');
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
    expect(mine.body.votes).toEqual(
      expect.arrayContaining([
        { questionId: up.id, value: 1 },
        { questionId: down.id, value: -1 },
      ]),
    );
    expect(mine.body.votes).toHaveLength(2);
    expectApiError(await visitor.get('/api/questions/my-votes'), 401, 'auth.unauthenticated');
  });
});

describe('a deleted account', () => {
  test('its posts stay as "Deleted user", its votes leave the counts, and every affected question gets a new version', async () => {
    const leaving = await newStudent('Leaving Student');
    const staying = await newStudent();
    const own = await ask(leaving.client);
    const theirs = await ask(staying.client);
    const reply = await answer(leaving.client, theirs.id);
    await put(leaving.client, `/api/questions/${theirs.id}/vote`, { value: 1 });
    await put(staying.client, `/api/questions/${theirs.id}/vote`, { value: -1 });
    await put(leaving.client, `/api/questions/${own.id}/vote`, { value: -1 });
    const before = (await collectChanges(0)).version;

    // Through the profile's own download and deletion, which compose every feature's part.
    const exported = (await leaving.client.get('/api/me/export')).body;
    expect(exported).toMatchObject({
      questions: [{ id: own.id, title: own.title, text: own.text }],
      answers: [{ id: reply.id, questionId: theirs.id }],
      votes: expect.arrayContaining([
        { questionId: theirs.id, value: 1 },
        { questionId: own.id, value: -1 },
      ]),
    });
    const heard: BusMessage[] = [];
    const stop = server.services.bus.subscribe((message) => void heard.push(message));
    try {
      expect((await leaving.client.delete('/api/me')).status).toBe(200);
      // On PostgreSQL the notices come back through LISTEN, a moment after the answer.
      await waitFor(
        async () =>
          heard.flatMap((m) => (m.type === 'notice' && m.event.table === 'questions' ? m.event.ids : [])).length >= 2,
        'notices for both questions',
      );
    } finally {
      stop();
    }
    const all = heard.flatMap((m) => (m.type === 'notice' ? [m.event] : []));
    // Besides the board's, only the notice that ends the account's open streams (events.ts `accessChanged`).
    expect(all.filter((n) => n.table !== 'questions')).toMatchObject([accessChanged([leaving.id])]);
    const notices = all.filter((n) => n.table === 'questions');
    expect(notices.flatMap((n) => n.ids).sort()).toEqual([own.id, theirs.id].sort());
    expect(notices.every((n) => n.audience === 'everyone')).toBe(true);

    const ownAfter = await read(own.id);
    expect(ownAfter.author).toEqual({ id: null, name: qaMessages.deletedUser, role: null });
    expect(ownAfter).toMatchObject({ upvotes: 0, downvotes: 0 });
    const theirsAfter = await read(theirs.id);
    expect(theirsAfter).toMatchObject({ upvotes: 0, downvotes: 1 });
    // Every notice says the last version the deletion set.
    const last = Math.max(ownAfter.version, theirsAfter.version);
    expect(notices.map((n) => n.version)).toEqual(notices.map(() => last));
    expect(theirsAfter.answers[0]?.author).toEqual({ id: null, name: qaMessages.deletedUser, role: null });
    expect(await storedVotes(theirs.id)).toEqual({ upvotes: 0, downvotes: 1 });

    const changes = await collectChanges(before);
    expect([...changes.questions.keys()].sort()).toEqual([own.id, theirs.id].sort());
  });
});

describe('a renamed account', () => {
  test('every question they asked or answered shows the new name, with a new version that `since` and every reader hear of', async () => {
    const renaming = await newStudent('Naledi Dube');
    const other = await newStudent('Sipho Ndlovu');
    const own = await ask(renaming.client);
    const theirs = await ask(other.client);
    await answer(renaming.client, theirs.id);
    const untouched = await ask(other.client);
    const before = await Promise.all([own, theirs, untouched].map((q) => read(q.id)));
    const since = onFirestore ? await boardPosition() : Math.max(...before.map((q) => q.version));
    // What a device that already polled holds: the answer's ETag, sent back with the next poll.
    const polled = await visitor.get(`/api/questions?since=${since}`);
    expect(polled.status, polled.text).toBe(200);
    const etag = polled.headers.get('etag');
    expect(etag).not.toBeNull();

    const heard: BusMessage[] = [];
    const stop = server.services.bus.subscribe((message) => void heard.push(message));
    try {
      expect((await renaming.client.put('/api/me/name', { name: 'Naledi Dube-Mthembu' })).status).toBe(200);
      await waitFor(
        async () =>
          heard.flatMap((m) => (m.type === 'notice' && m.event.table === 'questions' ? m.event.ids : [])).length >= 2,
        'notices for both questions',
      );
    } finally {
      stop();
    }
    const notices = heard.flatMap((m) => (m.type === 'notice' && m.event.table === 'questions' ? [m.event] : []));
    expect(notices.flatMap((n) => n.ids).sort()).toEqual([own.id, theirs.id].sort());
    expect(notices.every((n) => n.audience === 'everyone')).toBe(true);

    const [ownAfter, theirsAfter, untouchedAfter] = await Promise.all([own, theirs, untouched].map((q) => read(q.id)));
    expect(ownAfter!.author.name).toBe('Naledi Dube-Mthembu');
    expect(theirsAfter!.author.name).toBe('Sipho Ndlovu');
    expect(theirsAfter!.answers.map((a) => a.author.name)).toEqual(['Naledi Dube-Mthembu']);
    // New versions, so a device holding the board refreshes both; the question they had no part in keeps its own.
    expect(ownAfter!.version).toBeGreaterThan(before[0]!.version);
    expect(theirsAfter!.version).toBeGreaterThan(before[1]!.version);
    expect(untouchedAfter!.version).toBe(before[2]!.version);
    const last = Math.max(ownAfter!.version, theirsAfter!.version);
    expect(notices.map((n) => n.version)).toEqual(notices.map(() => last));

    // The device that polled before gets the renamed posts, not a 304 for the answer it holds.
    const next = await visitor.get(`/api/questions?since=${since}`, { headers: { 'if-none-match': etag! } });
    expect(next.status, next.text).toBe(200);
    const changes = await collectChanges(since);
    expect([...changes.questions.keys()].sort()).toEqual([own.id, theirs.id].sort());
    expect(changes.questions.get(own.id)!.author.name).toBe('Naledi Dube-Mthembu');
    expect(changes.questions.get(theirs.id)!.answers[0]!.author.name).toBe('Naledi Dube-Mthembu');
  });

  test('a user with nothing on the board is renamed without touching it', async () => {
    const quiet = await newStudent('Quiet Student');
    const position = await boardPosition();
    expect((await quiet.client.put('/api/me/name', { name: 'Still Quiet' })).status).toBe(200);
    expect(await boardPosition()).toBe(position);
  });
});
