import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Logger } from 'pino';
import type { Auth } from './auth/auth.ts';
import { createAuthRoutes } from './auth/auth.routes.ts';
import { createSessionReader } from './auth/auth.session.ts';
import type { Db } from './db/create-db.ts';
import type { Env } from './env.ts';
import { errorHandler } from './http/error-handler.ts';
import { createError } from './http/errors.ts';
import { requireSameOrigin } from './http/origin-check.ts';
import { requestLog } from './http/request-log.ts';
import { pageSecurityHeaders } from './http/security-headers.ts';
import { createStaticRoutes } from './http/static.ts';
import { createCatalogueRoutes } from './modules/catalogue/catalogue.routes.ts';
import { createCatalogueDeps, findModuleBySlug } from './modules/catalogue/catalogue.usecases.ts';
import { createConfigRoutes } from './modules/config/config.routes.ts';
import { createHealthRoutes } from './modules/health/health.routes.ts';
import { createMeRoutes, createSessionRoutes } from './modules/me/me.routes.ts';
import { createProfileRoutes } from './modules/profile/profile.routes.ts';
// Q&A board: local wiring until the app builds one Deps for every module.
import type { Deps } from './deps.ts';
import { createMemoryBus } from './events/memory-bus.ts';
import { createOutbox } from './mail/outbox.ts';
import { createQaRoutes } from './modules/qa/qa.routes.ts';

export interface AppDeps {
  env: Env;
  db: Db;
  auth: Auth;
  logger: Logger;
  clientDir: string;
}

export function createApp(deps: AppDeps) {
  const readSession = createSessionReader(deps);
  // One catalogue (and its in-memory copy) per app: see catalogue.cache.ts.
  const catalogue = createCatalogueDeps(deps.db);
  // Q&A board: local wiring until the app builds one Deps for every module.
  const qaDeps: Deps = { db: deps.db, clock: { now: () => new Date() }, events: createMemoryBus(), mail: createOutbox({ db: deps.db }), config: deps.env, logger: deps.logger };
  const app = new Hono();

  const limitBody = bodyLimit({
    maxSize: 64 * 1024,
    onError: () => {
      throw createError({ code: 'request.too_large', message: 'The request is too large.', status: 413 });
    },
  });

  if (deps.logger.isLevelEnabled('info')) app.use(requestLog(deps.logger));
  // Registered for the methods that carry a body only: GETs, the hot path, skip it entirely.
  app.on(['POST', 'PUT', 'PATCH', 'DELETE'], '/api/*', requireSameOrigin(deps.env.publicUrl), limitBody);

  app.route('/api/auth', createAuthRoutes(deps));
  app.route('/api/health', createHealthRoutes(deps));
  app.route('/api/config', createConfigRoutes(deps));
  app.route('/api/me', createMeRoutes({ readSession }));
  app.route('/api/me', createProfileRoutes({ db: deps.db, auth: deps.auth, readSession }));
  app.route('/api/modules', createCatalogueRoutes({ catalogue, readSession }));
  app.route('/api/session', createSessionRoutes({ readSession }));
  app.route('/api/questions', createQaRoutes(qaDeps, readSession));
  app.all('/api/*', () => {
    throw createError({ code: 'request.not_found', message: 'There is no such API route.', status: 404 });
  });

  app.use(pageSecurityHeaders(deps.env.production));
  app.route('/', createStaticRoutes(deps.clientDir, { moduleExists: async (slug) => (await findModuleBySlug(catalogue, slug)) !== undefined }));
  app.onError(errorHandler(deps.logger));
  return app;
}
