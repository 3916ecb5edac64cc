import { Hono, type TypedResponse } from 'hono';
import { createModuleInputSchema, updateModuleInputSchema, type Module } from '../../../common/catalogue.ts';
import { checkFirst, type SessionEnv } from '../../auth/auth.middleware.ts';
import { chooseEncoding, type Encoding } from '../../http/compression.ts';
import { isFresh } from '../../http/etag.ts';
import { jsonBody } from '../../http/json-body.ts';
import { preparedAnswer, type PreparedAnswer, type PreparedRoute } from '../../http/prepared-answers.ts';
import type { CatalogueSnapshot } from './catalogue.cache.ts';
import {
  createModule,
  deleteModule,
  listCatalogue,
  peekCatalogue,
  raiseModulePrice,
  requireCatalogueAdmin,
  requireModuleBySlug,
  updateModule,
  type CatalogueDeps,
} from './catalogue.usecases.ts';

/** `/api/modules`: anyone reads the catalogue; only the admin changes it. Writes need the session middleware (app.ts). */
export function createCatalogueRoutes(deps: CatalogueDeps) {
  // A student's write is refused as not allowed, whatever its body.
  const adminFirst = checkFirst(requireCatalogueAdmin);

  return new Hono<SessionEnv>()
    .get('/', async (c) => {
      const { status, headers, body } = catalogueAnswer(
        await listCatalogue(deps),
        c.req.header('if-none-match'),
        c.req.header('accept-encoding'),
      );
      // The type says what the text holds.
      return c.newResponse(body ?? null, status as 200, headers) as Response &
        TypedResponse<{ modules: Module[] }, 200, 'json'>;
    })
    .get('/:slug', async (c) => c.json(await requireModuleBySlug(deps, c.req.param('slug'))))
    .post('/', adminFirst, jsonBody(createModuleInputSchema), async (c) =>
      c.json(await createModule(deps, c.get('me'), c.req.valid('json')), 201),
    )
    .patch('/:id', adminFirst, jsonBody(updateModuleInputSchema), async (c) =>
      c.json(await updateModule(deps, c.get('me'), c.req.param('id'), c.req.valid('json'))),
    )
    .post('/:id/raise-price', adminFirst, async (c) =>
      c.json(await raiseModulePrice(deps, c.get('me'), c.req.param('id'))),
    )
    .delete('/:id', adminFirst, async (c) => {
      await deleteModule(deps, c.get('me'), c.req.param('id'));
      return c.json({ deleted: true });
    });
}

/** GET /api/modules, prepared (http/prepared-answers.ts) while the catalogue is in memory; the route above loads it. */
export function preparedCatalogue(deps: CatalogueDeps): PreparedRoute {
  return (headers) => {
    const snapshot = peekCatalogue(deps);
    return snapshot && catalogueAnswer(snapshot, headers['if-none-match'], headers['accept-encoding']);
  };
}

function catalogueAnswer(
  snapshot: CatalogueSnapshot,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
): PreparedAnswer {
  const answers = answersFor(snapshot);
  if (isFresh(ifNoneMatch, snapshot.etag)) return answers.notModified;
  if (!answers.compressed) return answers.plain;
  const encoding = chooseEncoding(acceptEncoding);
  return encoding ? answers.compressed[encoding] : answers.plain;
}

interface CatalogueAnswers {
  notModified: PreparedAnswer;
  plain: PreparedAnswer;
  compressed?: Record<Encoding, PreparedAnswer>;
}

const answersBySnapshot = new WeakMap<CatalogueSnapshot, CatalogueAnswers>();

/**
 * The catalogue's answers, made once per snapshot, so once per change, from its text, ETag and compressed
 * forms (catalogue.cache.ts). The same for everyone, so any cache may keep it, provided it asks again each
 * time; a 304 keeps what matters to a cache.
 */
function answersFor(snapshot: CatalogueSnapshot): CatalogueAnswers {
  let answers = answersBySnapshot.get(snapshot);
  if (answers) return answers;
  const { json, etag, compressed } = snapshot;
  const headers = { 'cache-control': 'no-cache', etag, vary: 'accept-encoding' };
  const json200 = { ...headers, 'content-type': 'application/json' };
  answers = {
    notModified: preparedAnswer(304, headers),
    plain: preparedAnswer(200, json200, json),
    compressed: compressed && {
      br: preparedAnswer(200, { ...json200, 'content-encoding': 'br' }, compressed.br),
      gzip: preparedAnswer(200, { ...json200, 'content-encoding': 'gzip' }, compressed.gzip),
    },
  };
  answersBySnapshot.set(snapshot, answers);
  return answers;
}
