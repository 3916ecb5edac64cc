import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { storedRows } from '../../test/stored.ts';
import {
  catalogueMessages,
  moduleSchema,
  slugify,
  type CreateModuleInput,
  type Module,
} from '../../../common/catalogue.ts';
import { categories } from '../../../common/roles.ts';
import { textMessages } from '../../../common/validation.ts';
import type { BusMessage } from '../../events/events.ts';
import {
  createClient,
  expectApiError,
  signInAs,
  startSmtpServer,
  startTestServer,
  type TestClient,
  type TestResponse,
  type TestServer,
  type TestSmtpServer,
  waitFor,
} from '../../test/harness.ts';
import { createCatalogueDeps, listCatalogue } from './catalogue.usecases.ts';

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
/** A new module's fields, with a name no other test uses. */
function newModule(overrides: Partial<CreateModuleInput> = {}): CreateModuleInput {
  counter += 1;
  return {
    name: `Numerical Methods ${counter} ${crypto.randomUUID().slice(0, 6)}`,
    category: 'Mathematics',
    priceCents: 9500,
    description: 'Root finding, interpolation and numerical integration, with the error analysis lecturers ask for.',
    topics: ['Newton-Raphson', 'Interpolation', 'Simpson’s rule'],
    ...overrides,
  };
}

async function addModule(overrides: Partial<CreateModuleInput> = {}): Promise<Module> {
  const response = await admin.post('/api/modules', newModule(overrides));
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** Both tables, as stored: what "nothing changed" is checked against. */
async function tables() {
  return {
    modules: await storedRows(server.services, 'modules'),
    enrolments: await storedRows(server.services, 'enrolments'),
  };
}

/** Runs `refused` and checks that it left both tables exactly as they were. */
async function expectNothingChanged<T>(refused: () => Promise<T>): Promise<T> {
  const before = await tables();
  const result = await refused();
  expect(await tables()).toEqual(before);
  return result;
}

const catalogue = async () => (await visitor.get('/api/modules')).body.modules as Module[];

describe('the catalogue as seeded', () => {
  const seeded: [slug: string, name: string, category: string, priceCents: number][] = [
    ['introduction-to-calculus', 'Introduction To Calculus', 'Mathematics', 9000],
    ['calculus-and-linear-algebra', 'Calculus and Linear Algebra', 'Mathematics', 9000],
    ['introduction-to-programming-with-python', 'Introduction to Programming with Python', 'Computer Science', 8000],
    ['introduction-to-oop-with-java', 'Introduction to OOP With Java', 'Computer Science', 9000],
    ['java-oop-and-gui', 'Java OOP and GUI', 'Computer Science', 9000],
    ['databases-and-programming', 'Databases and Programming', 'Computer Science', 8000],
    ['introduction-to-statistics', 'Introduction to Statistics', 'Statistics', 8000],
    ['fet-mathematics', 'FET Mathematics', 'Mathematics', 10000],
    ['fet-physical-science', 'FET Physical Science', 'Mathematics', 10000],
    ['data-structures-and-algorithms', 'Data Structures and Algorithms', 'Computer Science', 9000],
  ];

  test('a visitor sees the ten modules of the spec with their page addresses and hourly prices', async () => {
    // Read before any test adds a module: the seed alone.
    const response = await visitor.get('/api/modules');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const modules: Module[] = response.body.modules;
    expect(modules).toHaveLength(10);
    expect(modules.map((m) => [m.slug, m.name, m.category, m.priceCents]).sort()).toEqual([...seeded].sort());
    for (const module of modules) {
      expect(moduleSchema.parse(module)).toEqual(module);
      expect(module.slug).toBe(slugify(module.name));
      // A real description of one to three sentences, and three suggested topics (the booking page shows them).
      expect(module.description.length).toBeGreaterThan(40);
      expect(module.description.match(/[.!?](\s|$)/g)?.length ?? 0).toBeGreaterThanOrEqual(1);
      expect(module.description.match(/[.!?](\s|$)/g)?.length ?? 0).toBeLessThanOrEqual(3);
      expect(module.topics).toHaveLength(3);
      expect(module.id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  test('the catalogue is ordered by category, then by name', async () => {
    await addModule({ name: 'Applied Mathematics Zeta', category: 'Mathematics' });
    await addModule({ name: 'Applied Computing Alpha', category: 'Computer Science' });
    const modules = await catalogue();
    const expected = [...modules].sort(
      (a, b) => categories.indexOf(a.category) - categories.indexOf(b.category) || a.name.localeCompare(b.name, 'en'),
    );
    expect(modules.map((m) => m.name)).toEqual(expected.map((m) => m.name));
    expect(modules[0]!.name).toBe('Applied Computing Alpha');
    // Dictionary order, the same on SQLite and PostgreSQL: a space sorts before a letter.
    const names = modules.map((m) => m.name);
    expect(names.indexOf('Data Structures and Algorithms')).toBeLessThan(names.indexOf('Databases and Programming'));
  });

  test('a module page answers by its slug; an unknown slug is Module Not Found', async () => {
    const response = await visitor.get('/api/modules/fet-mathematics');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      slug: 'fet-mathematics',
      name: 'FET Mathematics',
      category: 'Mathematics',
      priceCents: 10000,
    });

    const missing = expectApiError(await visitor.get('/api/modules/no-such-module'), 404, 'modules.not_found');
    expect(missing.message).toBe('Module Not Found');
  });

  test('loading a module page directly gives the app with 200 for a module and 404 for an unknown slug', async () => {
    for (const [slug] of seeded) {
      const page = await visitor.get(`/modules/${slug}`);
      expect(page.status, slug).toBe(200);
      expect(page.text).toContain('<div id="root">');
    }
    const unknown = await visitor.get('/modules/introduction-to-astrology');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('<div id="root">');
  });
});

describe('who may change the catalogue', () => {
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
    '$who cannot add, edit, raise the price of or delete a module, and nothing changes',
    async ({ status, code, signIn }) => {
      const client = await signIn();
      const target = await addModule();
      await expectNothingChanged(async () => {
        expectApiError(await client.post('/api/modules', newModule()), status, code);
        // Refused before the body is read: an invalid body gets the same answer.
        expectApiError(await client.post('/api/modules', { name: '' }), status, code);
        expectApiError(
          await client.patch(`/api/modules/${target.id}`, { description: 'Changed by someone else.' }),
          status,
          code,
        );
        expectApiError(
          await client.patch(`/api/modules/${target.id}`, {
            name: 'Taken Over',
            category: 'Statistics',
            priceCents: 100,
          }),
          status,
          code,
        );
        expectApiError(await client.patch(`/api/modules/${target.id}`, { priceCents: 0 }), status, code);
        expectApiError(await client.post(`/api/modules/${target.id}/raise-price`), status, code);
        expectApiError(await client.delete(`/api/modules/${target.id}`), status, code);
      });
      // Reading is open to everyone.
      expect((await client.get(`/api/modules/${target.slug}`)).body).toEqual(target);
    },
  );

  test('the admin adds a module, which appears in the catalogue and on its own page', async () => {
    const input = newModule({
      name: '  Discrete Mathematics for Computing ',
      category: 'Computer Science',
      priceCents: 8550,
    });
    const response = await admin.post('/api/modules', input);
    expect(response.status, response.text).toBe(201);
    const created: Module = response.body;
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      slug: 'discrete-mathematics-for-computing',
      name: 'Discrete Mathematics for Computing',
      category: 'Computer Science',
      priceCents: 8550,
      description: input.description,
      topics: input.topics,
      updatedAt: expect.any(String),
    });
    expect(await catalogue()).toContainEqual(created);
    expect((await visitor.get('/api/modules/discrete-mathematics-for-computing')).body).toEqual(created);
    expect((await visitor.get('/modules/discrete-mathematics-for-computing')).status).toBe(200);
  });

  test('the spec’s three fields are enough: description and topics default to empty', async () => {
    const response = await admin.post('/api/modules', {
      name: 'Linear Programming Basics',
      category: 'Mathematics',
      priceCents: 9000,
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ description: '', topics: [] });
  });

  test('the admin edits a module’s description and topics; its name, category and price stay', async () => {
    const module = await addModule();
    const edited = await admin.patch(`/api/modules/${module.id}`, {
      description: '  Now with past papers.  ',
      topics: ['Past papers'],
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toEqual({
      ...module,
      description: 'Now with past papers.',
      topics: ['Past papers'],
      updatedAt: expect.any(String),
    });
    expect((await visitor.get(`/api/modules/${module.slug}`)).body).toEqual(edited.body);

    // One field at a time is fine too.
    const topicsOnly = await admin.patch(`/api/modules/${module.id}`, { topics: [] });
    expect(topicsOnly.body).toMatchObject({ description: 'Now with past papers.', topics: [] });
  });

  test('an edit that changes nothing is refused and changes nothing', async () => {
    const module = await addModule();
    await expectNothingChanged(async () => {
      expect(expectApiError(await admin.patch(`/api/modules/${module.id}`, {}), 400, 'request.invalid').message).toBe(
        'Nothing to change.',
      );
    });
  });

  test('editing, raising or deleting a module that does not exist is Module Not Found', async () => {
    const unknown = crypto.randomUUID();
    await expectNothingChanged(async () => {
      expectApiError(await admin.patch(`/api/modules/${unknown}`, { description: 'x' }), 404, 'modules.not_found');
      expectApiError(await admin.post(`/api/modules/${unknown}/raise-price`), 404, 'modules.not_found');
      expectApiError(await admin.delete(`/api/modules/${unknown}`), 404, 'modules.not_found');
      expectApiError(await admin.delete('/api/modules/not-a-uuid'), 404, 'modules.not_found');
    });
  });

  // On Firestore each would be a document path (`a/b`, `..`, a reserved `__…__` name, over 1,500 bytes), which
  // Firestore refuses with an error: they name no module, on every engine.
  test.each([
    ['a%2Fb', 'a%2Fb'],
    ['..%2f', '..%2f'],
    ['__proto__', '__proto__'],
    ['__name__', '__name__'],
    ['1,600 bytes long', 'x'.repeat(1600)],
  ])('editing, raising or deleting the module %s, which no module can be, is Module Not Found', async (_, id) => {
    await expectNothingChanged(async () => {
      expectApiError(await admin.patch(`/api/modules/${id}`, { description: 'x' }), 404, 'modules.not_found');
      expectApiError(await admin.post(`/api/modules/${id}/raise-price`), 404, 'modules.not_found');
      expectApiError(await admin.delete(`/api/modules/${id}`), 404, 'modules.not_found');
    });
  });

  test('a module named like a reserved name (__Proto__) is added, renamed and deleted like any other', async () => {
    const name = `__Proto__ ${crypto.randomUUID().slice(0, 6)}__`;
    const module = await addModule({ name });
    expect(module.name).toBe(name);
    const renamed = await admin.patch(`/api/modules/${module.id}`, { name: `__${name}` });
    expect(renamed.status, renamed.text).toBe(200);
    expectApiError(await admin.post('/api/modules', newModule({ name: `__${name}` })), 409, 'modules.duplicate_name');
    expect((await admin.delete(`/api/modules/${module.id}`)).status).toBe(200);
  });

  test('a change sent from another site is refused, even with the admin’s session cookie', async () => {
    const module = await addModule();
    await expectNothingChanged(async () => {
      const foreign = await admin.delete(`/api/modules/${module.id}`, { headers: { origin: 'https://evil.example' } });
      expectApiError(foreign, 403, 'request.invalid_origin');
      const foreignEdit = await admin.patch(
        `/api/modules/${module.id}`,
        { priceCents: 1 },
        { headers: { origin: 'https://evil.example' } },
      );
      expectApiError(foreignEdit, 403, 'request.invalid_origin');
      const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const noOrigin = await fetch(`${server.url}/api/modules/${module.id}/raise-price`, {
        method: 'POST',
        headers: { cookie },
      });
      expect(noOrigin.status).toBe(403);
    });
  });
});

describe('adding a module: what is refused', () => {
  const refusals: [what: string, override: Record<string, unknown>, field: string, message: string][] = [
    ['a negative price', { priceCents: -9000 }, 'priceCents', 'The price must be more than R0.'],
    ['a price of zero', { priceCents: 0 }, 'priceCents', 'The price must be more than R0.'],
    [
      'a price with a fraction of a cent',
      { priceCents: 9050.5 },
      'priceCents',
      'The price can have at most two decimals (whole cents).',
    ],
    [
      'an absurd price (over R100,000 an hour)',
      { priceCents: 10_000_001 },
      'priceCents',
      'The price can be at most R100,000 per hour.',
    ],
    // zod reports a number past 2^53 as "not an integer", hence this message.
    [
      'a price far beyond any integer column',
      { priceCents: 1e20 },
      'priceCents',
      'The price can have at most two decimals (whole cents).',
    ],
    ['a price sent as text', { priceCents: '90' }, 'priceCents', catalogueMessages.fillAllFields],
    ['no price', { priceCents: undefined }, 'priceCents', catalogueMessages.fillAllFields],
    ['an empty name', { name: '' }, 'name', catalogueMessages.fillAllFields],
    ['a name of spaces only', { name: '    ' }, 'name', catalogueMessages.fillAllFields],
    ['no name', { name: undefined }, 'name', catalogueMessages.fillAllFields],
    ['a name of 201 characters', { name: 'n'.repeat(201) }, 'name', 'Name must be at most 200 characters.'],
    [
      'a name without a letter or digit (no page address)',
      { name: '!!! ???' },
      'name',
      'The name needs at least one letter or digit.',
    ],
    ['an unknown category', { category: 'Astrology' }, 'category', catalogueMessages.fillAllFields],
    ['a category in the wrong case', { category: 'mathematics' }, 'category', catalogueMessages.fillAllFields],
    ['the category Uncategorized', { category: 'Uncategorized' }, 'category', catalogueMessages.fillAllFields],
    ['no category', { category: undefined }, 'category', catalogueMessages.fillAllFields],
    [
      'a description of 2001 characters',
      { description: 'd'.repeat(2001) },
      'description',
      'Description must be at most 2000 characters.',
    ],
    ['eleven topics', { topics: Array.from({ length: 11 }, (_, i) => `Topic ${i}`) }, 'topics', 'At most 10 topics.'],
    ['an empty topic', { topics: ['Limits', ' '] }, 'topics', 'A topic cannot be empty.'],
    // The name is in the subject of every booking e-mail about the module.
    ['a line break in the name', { name: 'Calculus\nPayment reference: X' }, 'name', textMessages.oneLine],
    ['a right-to-left override in the name', { name: 'Calculus \u202Efdp' }, 'name', textMessages.oneLine],
    ['a tab in a topic', { topics: ['Limits\tand more'] }, 'topics', textMessages.oneLine],
    ['a NUL in the description', { description: 'Limits\u0000' }, 'description', textMessages.multiLine],
    ['an unknown field', { slug: 'my-own-slug' }, '_form', 'Unknown field: slug.'],
    ['an id chosen by the client', { id: crypto.randomUUID() }, '_form', 'Unknown field: id.'],
  ];

  test.each(refusals)(
    '%s is refused with a message for that field, and nothing is added',
    async (_, override, field, message) => {
      const body = { ...newModule(), ...override };
      const error = await expectNothingChanged(async () =>
        expectApiError(await admin.post('/api/modules', body), 400, 'request.invalid'),
      );
      expect(error.fields?.[field]).toBe(message);
    },
  );

  test('the limits themselves are accepted: 1 cent, R100,000 and a name of 200 characters', async () => {
    expect((await addModule({ priceCents: 1 })).priceCents).toBe(1);
    expect((await addModule({ priceCents: 10_000_000 })).priceCents).toBe(10_000_000);
    const long = `${'Advanced topics in '.repeat(10)}x`.padEnd(200, 'y');
    expect(long).toHaveLength(200);
    expect((await addModule({ name: long })).name).toBe(long);
  });

  test('a body that is not JSON, or not declared as JSON, is refused and nothing is added', async () => {
    await expectNothingChanged(async () => {
      const json = JSON.stringify(newModule());
      const asText = await admin.request('/api/modules', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: json,
      });
      expectApiError(asText, 400, 'request.unsupported_content_type');
      const asForm = await admin.request('/api/modules', {
        method: 'POST',
        body: new URLSearchParams({ name: 'Form Module', category: 'Mathematics', priceCents: '9000' }),
      });
      expectApiError(asForm, 400, 'request.unsupported_content_type');
      const malformed = await admin.request('/api/modules', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name": "Half',
      });
      expectApiError(malformed, 400, 'request.malformed_json');
      for (const body of ['null', '[]', '"Calculus"', '42']) {
        expectApiError(
          await admin.request('/api/modules', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          }),
          400,
          'request.invalid',
        );
      }
      const huge = JSON.stringify(newModule({ description: 'd'.repeat(70 * 1024) }));
      expectApiError(
        await admin.request('/api/modules', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: huge,
        }),
        413,
        'request.too_large',
      );
    });
  });
});

describe('duplicate module names', () => {
  test.each([
    ['the same name', 'Java OOP and GUI'],
    ['the same name in other letter case', 'JAVA oop AND gui'],
    ['the same name with spaces around it', '  Java OOP and GUI  '],
    ['a different name with the same page address', 'Java-OOP and GUI!'],
  ])('%s as an existing module is refused (409), and nothing is added', async (_, name) => {
    const error = await expectNothingChanged(async () =>
      expectApiError(
        await admin.post('/api/modules', newModule({ name, category: 'Computer Science' })),
        409,
        'modules.duplicate_name',
      ),
    );
    expect(error.message).toBe(catalogueMessages.duplicateName);
    expect(error.fields).toEqual({ name: catalogueMessages.duplicateName });
  });

  test('two admins adding the same new module at once: one is added, the other is told it exists', async () => {
    const input = newModule();
    const responses = await Promise.all([
      admin.post('/api/modules', input),
      admin.post('/api/modules', { ...input, name: input.name.toUpperCase() }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
    expectApiError(
      responses.find((r) => r.status === 409)!,
      409,
      'modules.duplicate_name',
    );
    expect((await catalogue()).filter((m) => m.slug === slugify(input.name))).toHaveLength(1);
  });
});

describe('editing a module', () => {
  /** The module as the catalogue list and its own page both show it (they must agree), and its page load. */
  async function shown(module: Module): Promise<Module> {
    const [list, page, load] = await Promise.all([
      catalogue(),
      visitor.get(`/api/modules/${module.slug}`),
      visitor.get(`/modules/${module.slug}`),
    ]);
    expect(page.status, page.text).toBe(200);
    expect(load.status).toBe(200);
    expect(list.find((m) => m.id === module.id)).toEqual(page.body);
    return page.body;
  }

  const edits: [what: string, change: Record<string, unknown>, expected: Partial<Module>][] = [
    [
      'the name (trimmed); the page address stays',
      { name: '  Numerical Analysis for Engineers  ' },
      { name: 'Numerical Analysis for Engineers' },
    ],
    ['the category', { category: 'Statistics' }, { category: 'Statistics' }],
    ['the price, down', { priceCents: 7050 }, { priceCents: 7050 }],
    ['the price, up', { priceCents: 12000 }, { priceCents: 12000 }],
    ['the price, to the lowest allowed (1 cent)', { priceCents: 1 }, { priceCents: 1 }],
    ['the price, to the highest allowed (R100,000)', { priceCents: 10_000_000 }, { priceCents: 10_000_000 }],
    ['the description', { description: 'Errors first, then methods.' }, { description: 'Errors first, then methods.' }],
    ['the topics', { topics: ['Bisection', ' Secant method '] }, { topics: ['Bisection', 'Secant method'] }],
    [
      'every field at once',
      {
        name: 'Numerical Methods Bootcamp',
        category: 'Computer Science',
        priceCents: 6000,
        description: 'Short and practical.',
        topics: [],
      },
      {
        name: 'Numerical Methods Bootcamp',
        category: 'Computer Science',
        priceCents: 6000,
        description: 'Short and practical.',
        topics: [],
      },
    ],
  ];

  test.each(edits)(
    'the admin changes %s; the rest stays, and the catalogue and the module page show it at once',
    async (_, change, expected) => {
      const module = await addModule();
      // Read once first, so the catalogue is in memory before the edit: a stale copy would show below.
      expect(await shown(module)).toEqual(module);
      const response = await admin.patch(`/api/modules/${module.id}`, change);
      expect(response.status, response.text).toBe(200);
      const edited: Module = response.body;
      expect(edited).toEqual({ ...module, ...expected, updatedAt: expect.any(String) });
      expect(edited.slug).toBe(module.slug);
      expect(moduleSchema.parse(edited)).toEqual(edited);
      expect(await shown(module)).toEqual(edited);
    },
  );

  test('a price the admin lowers stays lowered, and +R10 starts from it', async () => {
    const module = await addModule({ priceCents: 9500 });
    await admin.post(`/api/modules/${module.id}/raise-price`);
    expect((await admin.patch(`/api/modules/${module.id}`, { priceCents: 8000 })).body.priceCents).toBe(8000);
    expect((await shown(module)).priceCents).toBe(8000);
    expect((await admin.post(`/api/modules/${module.id}/raise-price`)).body.priceCents).toBe(9000);
    expect((await shown(module)).priceCents).toBe(9000);
  });

  test('a module can be renamed to its own name in other letter case, and moved to another category and back', async () => {
    const module = await addModule();
    expect((await admin.patch(`/api/modules/${module.id}`, { name: module.name.toUpperCase() })).body.name).toBe(
      module.name.toUpperCase(),
    );
    expect(
      (await admin.patch(`/api/modules/${module.id}`, { name: module.name, category: 'Statistics' })).body,
    ).toMatchObject({ name: module.name, category: 'Statistics' });
    expect((await admin.patch(`/api/modules/${module.id}`, { category: 'Mathematics' })).body.category).toBe(
      'Mathematics',
    );
    expect(await shown(module)).toMatchObject({ name: module.name, category: 'Mathematics', slug: module.slug });
  });

  test('a renamed module keeps its page address; another module cannot take the old address', async () => {
    const module = await addModule({ name: 'Fourier Series Refresher' });
    const renamed = await admin.patch(`/api/modules/${module.id}`, { name: 'Fourier Analysis Refresher' });
    expect(renamed.body).toMatchObject({ slug: 'fourier-series-refresher', name: 'Fourier Analysis Refresher' });
    expect((await visitor.get('/modules/fourier-series-refresher')).status).toBe(200);
    expect((await visitor.get('/api/modules/fourier-series-refresher')).body.name).toBe('Fourier Analysis Refresher');
    // Old links lead to this module, so a new module of the old name cannot have that address.
    await expectNothingChanged(async () =>
      expectApiError(
        await admin.post('/api/modules', newModule({ name: 'Fourier Series Refresher' })),
        409,
        'modules.duplicate_name',
      ),
    );
  });

  test.each([
    ['the same name', 'Java OOP and GUI'],
    ['the same name in other letter case', 'java OOP AND Gui'],
    ['the same name with spaces around it', '  Java OOP and GUI '],
    ['a different name with the same page address', 'Java-OOP and GUI!'],
  ])('renaming to %s as another module is refused (409), and nothing changes', async (_, name) => {
    const module = await addModule({ category: 'Computer Science' });
    const error = await expectNothingChanged(async () =>
      expectApiError(
        await admin.patch(`/api/modules/${module.id}`, { name, priceCents: 100, description: 'Should not be saved.' }),
        409,
        'modules.duplicate_name',
      ),
    );
    expect(error.message).toBe(catalogueMessages.duplicateName);
    expect(error.fields).toEqual({ name: catalogueMessages.duplicateName });
    expect(await shown(module)).toEqual(module);
  });

  test('two modules renamed to the same new name at once: one is renamed, the other is told it exists', async () => {
    const [first, second] = [await addModule(), await addModule()];
    const name = `Optimisation Methods ${crypto.randomUUID().slice(0, 6)}`;
    const responses = await Promise.all([
      admin.patch(`/api/modules/${first.id}`, { name }),
      admin.patch(`/api/modules/${second.id}`, { name: name.toUpperCase() }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    expectApiError(
      responses.find((r) => r.status === 409)!,
      409,
      'modules.duplicate_name',
    );
    expect((await catalogue()).filter((m) => m.name.toLowerCase() === name.toLowerCase())).toHaveLength(1);
  });

  // `expect.any(String)` where zod's own wording is fine: the point is which field is named.
  const refusals: [what: string, body: unknown, field: string, message: unknown][] = [
    ['a price of zero', { priceCents: 0 }, 'priceCents', 'The price must be more than R0.'],
    ['a negative price', { priceCents: -500 }, 'priceCents', 'The price must be more than R0.'],
    [
      'a price with a fraction of a cent',
      { priceCents: 8999.5 },
      'priceCents',
      'The price can have at most two decimals (whole cents).',
    ],
    [
      'a price over R100,000 an hour',
      { priceCents: 10_000_001 },
      'priceCents',
      'The price can be at most R100,000 per hour.',
    ],
    ['a price sent as text', { priceCents: '90' }, 'priceCents', catalogueMessages.fillAllFields],
    ['a price of null', { priceCents: null }, 'priceCents', catalogueMessages.fillAllFields],
    ['an unknown category', { category: 'Astrology' }, 'category', catalogueMessages.fillAllFields],
    ['a category in the wrong case', { category: 'statistics' }, 'category', catalogueMessages.fillAllFields],
    ['a category of null', { category: null }, 'category', catalogueMessages.fillAllFields],
    ['an empty name', { name: '' }, 'name', catalogueMessages.fillAllFields],
    ['a name of spaces only', { name: '   ' }, 'name', catalogueMessages.fillAllFields],
    ['a name of null', { name: null }, 'name', catalogueMessages.fillAllFields],
    ['a name that is a number', { name: 42 }, 'name', catalogueMessages.fillAllFields],
    ['a name of 201 characters', { name: 'n'.repeat(201) }, 'name', 'Name must be at most 200 characters.'],
    [
      'a name without a letter or digit (no page address)',
      { name: '!!! ???' },
      'name',
      'The name needs at least one letter or digit.',
    ],
    [
      'a description of 2001 characters',
      { description: 'd'.repeat(2001) },
      'description',
      'Description must be at most 2000 characters.',
    ],
    ['topics that are not a list', { topics: 'Limits, Series' }, 'topics', expect.any(String)],
    ['an empty topic', { topics: ['ok', ''] }, 'topics', 'A topic cannot be empty.'],
    ['eleven topics', { topics: Array.from({ length: 11 }, (_, i) => `Topic ${i}`) }, 'topics', 'At most 10 topics.'],
    [
      'a good field beside a bad one',
      { description: 'Fine.', priceCents: 0 },
      'priceCents',
      'The price must be more than R0.',
    ],
    ['an unknown field', { slug: 'my-own-slug' }, '_form', 'Unknown field: slug.'],
    ['a new id', { id: crypto.randomUUID(), name: 'Anything' }, '_form', 'Unknown field: id.'],
    ['a body that is a list', [], '_form', expect.any(String)],
    ['a body of null', null, '_form', expect.any(String)],
  ];

  test.each(refusals)(
    '%s is refused (400) with a message for that field, and nothing changes',
    async (_, body, field, message) => {
      const module = await addModule();
      const error = await expectNothingChanged(async () => {
        const response = await admin.request(`/api/modules/${module.id}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return expectApiError(response, 400, 'request.invalid');
      });
      expect(error.fields?.[field]).toEqual(message);
      expect(await shown(module)).toEqual(module);
    },
  );

  test('renaming a module a student is enrolled in shows the new name on their profile; once deleted, the name they enrolled in', async () => {
    const module = await addModule({ name: 'Probability Warm-up' });
    const other = await addModule({ name: 'Probability Cool-down' });
    const student = await signInAs(server, 'student');
    for (const m of [module, other])
      expect((await student.client.post('/api/me/enrolments', { moduleId: m.id })).status).toBe(201);

    await admin.patch(`/api/modules/${module.id}`, { priceCents: 5000 });
    await admin.patch(`/api/modules/${module.id}`, { name: 'Probability Foundations' });
    // Two enrolments made a moment apart can share a timestamp, so their order is not fixed: compare sorted.
    const names = async () =>
      (
        (await student.client.get('/api/me/enrolments')).body.enrolments as {
          moduleName: string;
          moduleSlug: string | null;
        }[]
      )
        .map((e) => [e.moduleName, e.moduleSlug])
        .sort();
    expect(await names()).toEqual([
      ['Probability Cool-down', other.slug],
      ['Probability Foundations', module.slug],
    ]);

    // The profile reads the catalogue's name while the module exists; the enrolment itself keeps the name it was made with.
    await admin.delete(`/api/modules/${module.id}`);
    expect(await names()).toEqual([
      ['Probability Cool-down', other.slug],
      ['Probability Warm-up', null],
    ]);
  });

  test('a refused rename leaves the enrolments’ names as they were', async () => {
    const module = await addModule();
    const student = await signInAs(server, 'student');
    expect((await student.client.post('/api/me/enrolments', { moduleId: module.id })).status).toBe(201);
    await expectNothingChanged(async () =>
      expectApiError(
        await admin.patch(`/api/modules/${module.id}`, { name: 'FET Mathematics' }),
        409,
        'modules.duplicate_name',
      ),
    );
    expect((await student.client.get('/api/me/enrolments')).body.enrolments[0].moduleName).toBe(module.name);
  });

  test('editing a module that does not exist is Module Not Found, even with a name that is taken', async () => {
    await expectNothingChanged(async () => {
      expectApiError(
        await admin.patch(`/api/modules/${crypto.randomUUID()}`, { name: 'FET Mathematics' }),
        404,
        'modules.not_found',
      );
      expectApiError(
        await admin.patch(`/api/modules/${crypto.randomUUID()}`, { name: 'Brand New Name', priceCents: 100 }),
        404,
        'modules.not_found',
      );
    });
  });
});

describe('raising a price by R10', () => {
  const price = async (slug: string) => {
    const [list, page] = await Promise.all([catalogue(), visitor.get(`/api/modules/${slug}`)]);
    const listed = list.find((m) => m.slug === slug)!.priceCents;
    expect(page.body.priceCents).toBe(listed);
    return listed;
  };

  test('+R10 shows the new price in the catalogue and on the module page', async () => {
    const module = (await catalogue()).find((m) => m.slug === 'introduction-to-statistics')!;
    const before = await price(module.slug);
    const raised = await admin.post(`/api/modules/${module.id}/raise-price`);
    expect(raised.status, raised.text).toBe(200);
    expect(raised.body).toEqual({ ...module, priceCents: before + 1000, updatedAt: expect.any(String) });
    expect(await price(module.slug)).toBe(before + 1000);
  });

  test('two raises at once both count', async () => {
    const module = await addModule({ priceCents: 8000 });
    const responses = await Promise.all([
      admin.post(`/api/modules/${module.id}/raise-price`),
      admin.post(`/api/modules/${module.id}/raise-price`),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    expect(responses.map((r: TestResponse) => r.body.priceCents as number).sort((a, b) => a - b)).toEqual([
      9000, 10000,
    ]);
    expect(await price(module.slug)).toBe(10000);
  });

  test('a raise up to R100,000 is allowed; one past it is refused and the price stays', async () => {
    const module = await addModule({ priceCents: 9_999_000 });
    expect((await admin.post(`/api/modules/${module.id}/raise-price`)).body.priceCents).toBe(10_000_000);
    const error = await expectNothingChanged(async () =>
      expectApiError(await admin.post(`/api/modules/${module.id}/raise-price`), 400, 'modules.price_limit'),
    );
    expect(error.message).toBe('The price can be at most R100,000 per hour.');
    expect(await price(module.slug)).toBe(10_000_000);
  });
});

describe('deleting a module', () => {
  test('it leaves the catalogue and its page; students enrolled keep the enrolment with the module’s name', async () => {
    const module = await addModule({ name: 'Complex Analysis Crash Course' });
    const student = await signInAs(server, 'student');
    const enrolled = await student.client.post('/api/me/enrolments', { moduleId: module.id });
    expect(enrolled.status, enrolled.text).toBe(201);

    const deleted = await admin.delete(`/api/modules/${module.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ deleted: true });

    expect((await catalogue()).some((m) => m.id === module.id)).toBe(false);
    expectApiError(await visitor.get(`/api/modules/${module.slug}`), 404, 'modules.not_found');
    expect((await visitor.get(`/modules/${module.slug}`)).status).toBe(404);

    const enrolments = (await student.client.get('/api/me/enrolments')).body.enrolments;
    expect(enrolments).toEqual([
      {
        id: enrolled.body.id,
        moduleId: null,
        moduleName: 'Complex Analysis Crash Course',
        moduleSlug: null,
        enrolledAt: enrolled.body.enrolledAt,
      },
    ]);

    // Gone for good: deleting again is a 404, and nobody can enrol any more.
    expectApiError(await admin.delete(`/api/modules/${module.id}`), 404, 'modules.not_found');
    expectApiError(
      await student.client.post('/api/me/enrolments', { moduleId: module.id }),
      404,
      'profile.module_not_found',
    );
  });

  test('its name is free again: a new module of that name gets the same page address', async () => {
    const first = await addModule({ name: 'Vector Calculus Revision' });
    await admin.delete(`/api/modules/${first.id}`);
    const second = await addModule({ name: 'Vector Calculus Revision' });
    expect(second.id).not.toBe(first.id);
    expect(second.slug).toBe(first.slug);
    expect((await visitor.get(`/modules/${second.slug}`)).status).toBe(200);
  });
});

describe('changes made by another server process', () => {
  /** A module written straight to storage (its repository, not the usecase), as another process sharing it would. */
  async function insertElsewhere(): Promise<string> {
    const id = crypto.randomUUID();
    const now = new Date().toISOString();
    const name = `Written Elsewhere ${id.slice(0, 8)}`;
    await server.services.deps.repos.catalogue.insert({
      id,
      slug: slugify(name),
      name,
      category: 'Statistics',
      priceCents: 7000,
      description: '',
      topics: [],
      createdAt: now,
      updatedAt: now,
    });
    return id;
  }
  const listed = async (id: string) => (await catalogue()).some((m) => m.id === id);

  test('each write is announced on the event bus, to everyone, once committed', async () => {
    const heard: BusMessage[] = [];
    const stop = server.services.bus.subscribe((message) => void heard.push(message));
    try {
      const module = await addModule();
      await admin.patch(`/api/modules/${module.id}`, { description: 'Edited.' });
      await admin.post(`/api/modules/${module.id}/raise-price`);
      await admin.delete(`/api/modules/${module.id}`);
      const notice = {
        type: 'notice',
        event: { table: 'modules', ids: [module.id], audience: 'everyone', id: expect.any(String) },
      };
      // On PostgreSQL the notices come back through LISTEN, a moment after the answers, and a notice from an
      // earlier test may still be on its way: only this module's count.
      const about = () => heard.filter((m) => m.type === 'notice' && m.event.ids.includes(module.id));
      await waitFor(async () => about().length >= 4, 'four notices');
      expect(about()).toEqual([notice, notice, notice, notice]);
    } finally {
      stop();
    }
  });

  test('a modules notice on the bus makes this process read the catalogue afresh', async () => {
    await catalogue();
    const id = await insertElsewhere();
    // Until the notice arrives, this process answers from its copy in memory.
    expect(await listed(id)).toBe(false);
    server.services.bus.publish({ table: 'modules', ids: [id], audience: 'everyone' });
    await waitFor(() => listed(id), 'the module written elsewhere to be listed');
  });

  test('a notice about another table leaves the copy as it is; a resync (notices may be lost) refreshes it', async () => {
    let listener: ((message: BusMessage) => void) | undefined;
    // A bus that lets the test speak: the in-memory one never sends `resync`.
    const bus = {
      subscribe(l: (message: BusMessage) => void) {
        listener = l;
        return () => {};
      },
    };
    const deps = createCatalogueDeps(server.services.deps, bus);
    const ids = async () => (await listCatalogue(deps)).modules.map((m) => m.id);
    await ids();
    const id = await insertElsewhere();
    listener!({ type: 'notice', event: { table: 'questions', ids: [id], audience: 'everyone', id: 'x-1' } });
    expect(await ids()).not.toContain(id);
    listener!({ type: 'resync' });
    expect(await ids()).toContain(id);
  });
});
