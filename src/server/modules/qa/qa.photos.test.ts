import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { photoLimits, photoPath, qaMessages, questionSchema, type Question } from '../../../common/qa.ts';
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
import { imageTypeOf } from './qa.photos.ts';

/**
 * Photos of working on the board (issue 39 §2): posted with a question or an answer as a form, checked by their
 * bytes, served to whoever may see the post and to nobody once it is gone, deleted with the post and with the
 * account, listed in the export. On SQLite, PostgreSQL (TEST_DATABASE_URL) and Firestore's emulator alike.
 */
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

async function newStudent(name = 'Thandi Mokoena') {
  const account = await createVerifiedUser(server, { name });
  return { ...account, client: await logIn(server, account) };
}

/** A real PNG, `width` × 1 grey pixels (its IDAT compressed by zlib, its CRCs left zero: browsers show it). */
function png(width = 4): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'ascii'), data, Buffer.alloc(4)]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width, 0x80)]);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(row)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** Bytes the server takes for a JPEG, by its signature (it does not decode photos), `size` bytes long. */
function jpeg(size = 2_000, fill = 0x11): Uint8Array {
  const bytes = new Uint8Array(size).fill(fill);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  bytes.set([0xff, 0xd9], size - 2);
  return bytes;
}

const webp = () =>
  new Uint8Array([...Buffer.from('RIFF'), 20, 0, 0, 0, ...Buffer.from('WEBPVP8 '), ...new Array(12).fill(0)]);

interface Photo {
  id?: string;
  bytes?: Uint8Array;
  thumb?: Uint8Array;
  /** The type the form claims, which the server ignores. */
  type?: string;
  name?: string;
}

/** A post as the client sends one with photos: multipart/form-data (qa.post-body.ts). */
function form(post: object, photos: Photo[]) {
  const body = new FormData();
  const filled = photos.map((p) => ({ id: crypto.randomUUID(), bytes: jpeg(), thumb: jpeg(300), ...p }));
  body.set('post', JSON.stringify(post));
  body.set('photoIds', JSON.stringify(filled.map((p) => p.id)));
  for (const p of filled) {
    body.append(
      'photo',
      new Blob([p.bytes as Uint8Array<ArrayBuffer>], { type: p.type ?? 'image/jpeg' }),
      p.name ?? 'photo.jpg',
    );
    body.append('thumb', new Blob([p.thumb as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), 'thumb.jpg');
  }
  return { body, ids: filled.map((p) => p.id), post };
}

const send = (client: TestClient, path: string, body: FormData) => client.request(path, { method: 'POST', body });

async function askWith(client: TestClient, photos: Photo[], id = crypto.randomUUID()) {
  const post = { id, title: 'Where did my integral go wrong?', text: 'My working is in the photos.' };
  const { body, ids } = form(post, photos);
  return { response: await send(client, '/api/questions', body), ids, id, post, photos };
}

const read = async (id: string) => questionSchema.parse((await visitor.get(`/api/questions/${id}`)).body);

/** What the storage holds of the photo, whatever the visibility rules say. */
const stored = (id: string) => server.services.deps.repos.qa.findPhoto(id, 'full');

describe('a post with photos', () => {
  test('a question carries its photos in order; anyone who may read it gets each photo and thumbnail as sent', async () => {
    const { client } = await newStudent();
    const first = jpeg(5_000, 0x22);
    const second = png();
    const { response, ids, id } = await askWith(client, [
      { bytes: first, thumb: jpeg(500, 0x23) },
      { bytes: second, thumb: png(2), type: 'application/octet-stream', name: 'working.bin' },
      { bytes: webp(), thumb: webp() },
    ]);
    expect(response.status, response.text).toBe(201);
    const question = questionSchema.parse(response.body);
    expect(question.photos).toEqual(ids);
    expect((await read(id)).photos).toEqual(ids);
    const listed = (await visitor.get('/api/questions')).body as { questions: Question[] };
    expect(listed.questions.find((q) => q.id === id)?.photos).toEqual(ids);

    for (const reader of [visitor, client, admin]) {
      const full = await reader.get(photoPath(ids[0]!));
      expect(full.status).toBe(200);
      expect(full.headers.get('content-type')).toBe('image/jpeg');
      expect(full.headers.get('x-content-type-options')).toBe('nosniff');
      expect(full.headers.get('cache-control')).toBe('private, max-age=86400');
      expect(full.bytes).toEqual(first);
    }
    const thumb = await visitor.get(photoPath(ids[0]!, 'thumb'));
    expect(thumb.bytes).toEqual(jpeg(500, 0x23));
    // The type the bytes say, not the one the form claimed.
    const asPng = await visitor.get(photoPath(ids[1]!));
    expect(asPng.headers.get('content-type')).toBe('image/png');
    expect(asPng.bytes).toEqual(second);
    expect((await visitor.get(photoPath(ids[2]!))).headers.get('content-type')).toBe('image/webp');
  });

  test('sent again (its answer was lost), it is the same question with the same photos, stored once', async () => {
    const { client } = await newStudent();
    const id = crypto.randomUUID();
    const photos = [{ id: crypto.randomUUID() }, { id: crypto.randomUUID() }];
    const first = await askWith(client, photos, id);
    expect(first.response.status, first.response.text).toBe(201);
    const again = await askWith(client, photos, id);
    expect(again.response.status, again.response.text).toBe(200);
    expect(questionSchema.parse(again.response.body).photos).toEqual(first.ids);
    expect(await server.services.deps.repos.qa.listPhotos([id])).toHaveLength(2);
    // The same id with other photos is another post under a used id.
    const other = await askWith(client, [{ id: photos[0]!.id }], id);
    expectApiError(other.response, 409, 'qa.id_reused');
  });

  test('an answer carries photos too, and a photo id another post holds is refused', async () => {
    const asker = await newStudent();
    const { id: questionId, ids } = await askWith(asker.client, [{}]);
    const { client } = await newStudent('Sipho Tutor');
    const answer = { id: crypto.randomUUID(), text: 'See where the sign flips.' };
    const sent = form(answer, [{ bytes: png() }]);
    const response = await send(client, `/api/questions/${questionId}/answers`, sent.body);
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ id: answer.id, photos: sent.ids });
    expect((await read(questionId)).answers[0]?.photos).toEqual(sent.ids);
    expect((await visitor.get(photoPath(sent.ids[0]!))).headers.get('content-type')).toBe('image/png');

    const reused = form({ id: crypto.randomUUID(), text: 'Another answer.' }, [{ id: ids[0] }]);
    expectApiError(await send(client, `/api/questions/${questionId}/answers`, reused.body), 409, 'qa.id_reused');
  });
});

describe('photos the server refuses, storing nothing of the post', () => {
  const refusedWith = async (photos: Photo[], status: number, code: string) => {
    const { client } = await newStudent();
    const { response, id } = await askWith(client, photos);
    const error = expectApiError(response, status, code);
    expect((await visitor.get(`/api/questions/${id}`)).status).toBe(404);
    return error;
  };

  test('a text file named .jpg, an SVG, a GIF, or a thumbnail that is not an image: the bytes decide', async () => {
    const text = new TextEncoder().encode('These are my notes, not a photo.\n');
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const gif = new TextEncoder().encode('GIF89a\u0001\u0000\u0001\u0000');
    for (const bytes of [text, svg, gif]) {
      const error = await refusedWith([{ bytes, type: 'image/jpeg', name: 'working.jpg' }], 415, 'qa.photo_type');
      expect(error.message).toBe(qaMessages.photoType);
    }
    await refusedWith([{ thumb: svg }], 415, 'qa.photo_type');
    expect(imageTypeOf(new Uint8Array([0xff, 0xd8]))).toBeUndefined();
  });

  test('a photo over 400 KB or a thumbnail over 48 KB, with a message that says what to do', async () => {
    const error = await refusedWith([{ bytes: jpeg(photoLimits.maxBytes + 1) }], 413, 'qa.photo_too_large');
    expect(error.message).toBe(qaMessages.photoTooLarge);
    await refusedWith([{ thumb: jpeg(photoLimits.thumbMaxBytes + 1) }], 413, 'qa.photo_too_large');
    // Just under the caps is taken.
    const { client } = await newStudent();
    const taken = await askWith(client, [
      { bytes: jpeg(photoLimits.maxBytes), thumb: jpeg(photoLimits.thumbMaxBytes) },
    ]);
    expect(taken.response.status, taken.response.text).toBe(201);
  });

  test('a fourth photo, or a body past the form’s limit', async () => {
    const error = await refusedWith([{}, {}, {}, {}], 400, 'qa.too_many_photos');
    expect(error.message).toBe(qaMessages.tooManyPhotos(3));
    const big = Array.from({ length: 4 }, () => ({ bytes: jpeg(photoLimits.maxBytes) }));
    await refusedWith(big, 413, 'request.too_large');
  });

  test('a visitor’s post with photos gets the spec’s words; a form without thumbnails is malformed', async () => {
    await expect(
      askWith(visitor, [{}]).then((r) => expectApiError(r.response, 401, 'auth.unauthenticated').message),
    ).resolves.toBe(qaMessages.askSignedOut);
    const { client } = await newStudent();
    const body = new FormData();
    body.set('post', JSON.stringify({ id: crypto.randomUUID(), title: 'A title', text: 'A text' }));
    body.set('photoIds', JSON.stringify([crypto.randomUUID()]));
    body.append('photo', new Blob([jpeg()]), 'a.jpg');
    expectApiError(await send(client, '/api/questions', body), 400, 'request.invalid');
  });
});

describe('who may see a photo: whoever may see its post, and nobody once it is gone', () => {
  const refusedToAll = async (id: string) => {
    for (const reader of [visitor, admin])
      for (const size of ['full', 'thumb'] as const) {
        const response = await reader.get(photoPath(id, size));
        expectApiError(response, 404, 'qa.photo_not_found');
        expect(response.headers.get('content-type')).not.toMatch(/^image/);
      }
  };

  test('an unknown photo, or an id no photo can have', async () => {
    await refusedToAll(crypto.randomUUID());
    expectApiError(await visitor.get('/api/photos/..%2F..'), 404, 'qa.photo_not_found');
  });

  test('the admin deletes an answer: its photos go, bytes and all; the question’s stay', async () => {
    const { client } = await newStudent();
    const asked = await askWith(client, [{}]);
    const reply = form({ id: crypto.randomUUID(), text: 'Like this.' }, [{}, {}]);
    expect((await send(client, `/api/questions/${asked.id}/answers`, reply.body)).status).toBe(201);
    const removed = await admin.delete(`/api/questions/${asked.id}/answers/${(reply.post as { id: string }).id}`);
    expect(removed.status, removed.text).toBe(200);
    for (const id of reply.ids) {
      await refusedToAll(id);
      expect(await stored(id)).toBeUndefined();
    }
    expect((await visitor.get(photoPath(asked.ids[0]!))).status).toBe(200);
  });

  test('the admin deletes a question: its photos and its answers’ go with it', async () => {
    const { client } = await newStudent();
    const asked = await askWith(client, [{}, {}]);
    const reply = form({ id: crypto.randomUUID(), text: 'Like this.' }, [{}]);
    expect((await send(client, `/api/questions/${asked.id}/answers`, reply.body)).status).toBe(201);
    expect((await admin.delete(`/api/questions/${asked.id}`)).status).toBe(200);
    for (const id of [...asked.ids, ...reply.ids]) {
      await refusedToAll(id);
      expect(await stored(id)).toBeUndefined();
    }
  });

  test('an account deleted: its photos go, others’ on the same question stay; the export listed them first', async () => {
    const leaving = await newStudent('Leaving Student');
    const staying = await newStudent();
    const own = await askWith(leaving.client, [{}]);
    const theirs = await askWith(staying.client, [{}]);
    const reply = form({ id: crypto.randomUUID(), text: 'Mine.' }, [{}]);
    expect((await send(leaving.client, `/api/questions/${theirs.id}/answers`, reply.body)).status).toBe(201);

    const exported = (await leaving.client.get('/api/me/export')).body as { photos: unknown[] };
    expect(exported.photos).toEqual([
      expect.objectContaining({ id: own.ids[0], questionId: own.id, answerId: null, url: photoPath(own.ids[0]!) }),
      expect.objectContaining({ id: reply.ids[0], questionId: theirs.id, contentType: 'image/jpeg', size: 2_000 }),
    ]);

    expect((await leaving.client.delete('/api/me')).status).toBe(200);
    for (const id of [own.ids[0]!, reply.ids[0]!]) {
      await refusedToAll(id);
      expect(await stored(id)).toBeUndefined();
    }
    // The posts stay, as "Deleted user", without the photos.
    expect((await read(own.id)).photos).toEqual([]);
    expect((await read(theirs.id)).answers[0]?.photos).toEqual([]);
    expect((await visitor.get(photoPath(theirs.ids[0]!))).status).toBe(200);
  });
});
