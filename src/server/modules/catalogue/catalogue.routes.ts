import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { createModuleInputSchema, updateModuleInputSchema } from '../../../common/catalogue.ts';
import { requireRole, requireUser, type SessionReader } from '../../auth/auth.session.ts';
import { readJsonBody } from '../../http/json-body.ts';
import {
  createModule,
  deleteModule,
  listCatalogue,
  raiseModulePrice,
  requireModuleBySlug,
  updateModule,
  type CatalogueDeps,
} from './catalogue.usecases.ts';

/** `/api/modules`: anyone reads the catalogue; only the admin changes it. */
export function createCatalogueRoutes(deps: { catalogue: CatalogueDeps; readSession: SessionReader }) {
  const { catalogue } = deps;
  // Before the body is read: a student's request is refused as not allowed, whatever it carries.
  const requireAdmin = createMiddleware(async (c, next) => {
    requireRole(await requireUser(deps.readSession, c), 'admin');
    await next();
  });

  return new Hono()
    .get('/', async (c) => c.body((await listCatalogue(catalogue)).json, 200, { 'content-type': 'application/json' }))
    .get('/:slug', async (c) => c.json(await requireModuleBySlug(catalogue, c.req.param('slug'))))
    .post('/', requireAdmin, async (c) => c.json(await createModule(catalogue, await readJsonBody(c, createModuleInputSchema)), 201))
    .patch('/:id', requireAdmin, async (c) => c.json(await updateModule(catalogue, c.req.param('id'), await readJsonBody(c, updateModuleInputSchema))))
    .post('/:id/raise-price', requireAdmin, async (c) => c.json(await raiseModulePrice(catalogue, c.req.param('id'))))
    .delete('/:id', requireAdmin, async (c) => {
      await deleteModule(catalogue, c.req.param('id'));
      return c.json({ deleted: true });
    });
}
