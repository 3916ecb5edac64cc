import { Hono, type TypedResponse } from 'hono';
import { createModuleInputSchema, updateModuleInputSchema, type Module } from '../../../common/catalogue.ts';
import { checkFirst, type SessionEnv } from '../../auth/auth.middleware.ts';
import { chooseEncoding } from '../../http/compression.ts';
import { isFresh, notModified } from '../../http/etag.ts';
import { jsonBody } from '../../http/json-body.ts';
import {
  createModule,
  deleteModule,
  listCatalogue,
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
      // Sent as serialised, hashed and compressed once per change (catalogue.cache.ts); the type says what the
      // text holds. The same for everyone, so any cache may keep it, provided it asks again each time.
      const { json, etag, compressed } = await listCatalogue(deps);
      const headers = { 'cache-control': 'no-cache', etag, vary: 'accept-encoding' };
      if (isFresh(c, etag)) return notModified(etag, headers) as unknown as Response & TypedResponse<{ modules: Module[] }, 200, 'json'>;
      const encoding = compressed && chooseEncoding(c);
      const body = encoding ? compressed[encoding] : json;
      return c.newResponse(body, 200, { ...headers, 'content-type': 'application/json', ...(encoding ? { 'content-encoding': encoding } : {}) }) as Response &
        TypedResponse<{ modules: Module[] }, 200, 'json'>;
    })
    .get('/:slug', async (c) => c.json(await requireModuleBySlug(deps, c.req.param('slug'))))
    .post('/', adminFirst, jsonBody(createModuleInputSchema), async (c) => c.json(await createModule(deps, c.var.me, c.req.valid('json')), 201))
    .patch('/:id', adminFirst, jsonBody(updateModuleInputSchema), async (c) =>
      c.json(await updateModule(deps, c.var.me, c.req.param('id'), c.req.valid('json'))),
    )
    .post('/:id/raise-price', adminFirst, async (c) => c.json(await raiseModulePrice(deps, c.var.me, c.req.param('id'))))
    .delete('/:id', adminFirst, async (c) => {
      await deleteModule(deps, c.var.me, c.req.param('id'));
      return c.json({ deleted: true });
    });
}
