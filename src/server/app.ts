import {
  createDeliveryAdminRoutes,
  createNoticePreferenceRoutes,
  createNoticeRoutes,
} from './modules/notices/notices.routes.ts';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { signedInPages } from '../common/routes.ts';
import { createSessionMiddleware, readSessionOnce } from './auth/auth.middleware.ts';
import { createSessionReader } from './auth/auth.session.ts';
import type { SessionCache } from './auth/session-cache.ts';
import { createReadLimit } from './http/read-limit.ts';
import { createAuthRoutes } from './auth/auth.routes.ts';
import type { Auth } from './auth/auth.ts';
import type { Deps } from './deps.ts';
import type { EventBus } from './events/events.ts';
import { createEventsRoutes, livePosition } from './events/events.routes.ts';
import type { StreamHub } from './events/stream-hub.ts';
import { statementMaxBytes } from '../common/statements.ts';
import { photoPostMaxBytes } from '../common/qa.ts';

import { limitBody } from './http/body-limit.ts';
import { compressJson } from './http/compression.ts';
import { errorHandler } from './http/error-handler.ts';
import { createError } from './http/errors.ts';
import { createPreparedAnswers } from './http/prepared-answers.ts';
import { requireSameOrigin } from './http/origin-check.ts';
import { requestLog } from './http/request-log.ts';
import { pageSecurityHeaders } from './http/security-headers.ts';
import { createPageRenderer, type RenderApp } from './http/rendered-pages.ts';
import { createStaticRoutes } from './http/static.ts';
import { createAvailabilityRoutes } from './modules/availability/availability.routes.ts';
import { createBookingRoutes } from './modules/bookings/bookings.routes.ts';
import { createGroupRoutes } from './modules/bookings/groups.routes.ts';
import { createPackageRoutes } from './modules/bookings/packages.routes.ts';
import { createPayFastRoutes } from './modules/bookings/payfast.routes.ts';
import { createWhatsAppRoutes } from './modules/notices/whatsapp.routes.ts';
import { createCalendarFeedRoutes, createCalendarRoutes } from './modules/calendar/calendar.routes.ts';
import { createCatalogueRoutes, preparedCatalogue } from './modules/catalogue/catalogue.routes.ts';
import { createCatalogueDeps, findModuleBySlug, type CatalogueDeps } from './modules/catalogue/catalogue.usecases.ts';
import { createConfigRoutes } from './modules/config/config.routes.ts';
import {
  createHealthCheck,
  createHealthRoutes,
  preparedHealth,
  type HealthCheck,
} from './modules/health/health.routes.ts';
import { createMeRoutes, createSessionRoutes } from './modules/me/me.routes.ts';
import { createProfileRoutes } from './modules/profile/profile.routes.ts';
import { createStaffRoutes } from './modules/staff/staff.routes.ts';
import { createPhotoRoutes, createQaRoutes } from './modules/qa/qa.routes.ts';
import { createSessionOfferRoutes } from './modules/sessions/sessions.routes.ts';
import { createTestimonialsRoutes } from './modules/testimonials/testimonials.routes.ts';
import type { RouteScope } from './feature.ts';
import { features } from './features.ts';
import type { PersonalDataPart } from './personal-data.ts';

/** The two posts that may carry photos: a question, and an answer to one. */
const photoPost = /^\/api\/questions(\/[^/]+\/answers)?$/;

export interface AppOptions {
  deps: Deps;
  /** The process's event bus: the catalogue's copy in memory listens to it. */
  bus: EventBus;
  auth: Auth;
  /** Each feature's part of the data export and account deletion (server.ts). */
  personalData: readonly PersonalDataPart[];
  /** Sessions read lately (auth/session-cache.ts), where the engine can tell when they change. */
  sessionCache?: SessionCache;
  /** The open live-event streams (GET /api/events). */
  streamHub: StreamHub;
  clientDir: string;
  /** The app's renderer for the pages rendered per request; by default the build's (http/rendered-pages.ts). */
  renderApp?: RenderApp;
}

/**
 * The app (Hono), and the answers prepared for its busiest public GETs, which the Node server gives before
 * asking the app (`createHttpServer(app.fetch, { prepared })`, docs/decisions/0007-api-headers-at-the-node-level.md).
 */
export function createApp({
  deps,
  bus,
  sessionCache,
  streamHub,
  auth,
  personalData,
  clientDir,
  renderApp,
}: AppOptions) {
  // One catalogue (and its in-memory copy) per app: see catalogue.cache.ts.
  const catalogue = createCatalogueDeps(deps, bus);
  const health = createHealthCheck(deps);
  const readMe = createSessionReader({ auth, accounts: deps.repos.accounts, cache: sessionCache });
  const withMe = createSessionMiddleware(readMe);
  const app = new Hono();

  if (deps.logger.isLevelEnabled('info')) app.use(requestLog(deps.logger));
  // Registered for the methods that carry a body only: GETs, the hot path, skip it entirely.
  // A bank statement (the admin's, issue 37) may be megabytes, with up to 20,000 chosen lines' keys beside it
  // (about 1.5 MB); every other body fits in 64 KB.
  const smallBody = limitBody(64 * 1024);
  const statementBody = limitBody(statementMaxBytes + 2 * 1024 * 1024);
  // A question or an answer with up to three photos (issue 39), sent as a form: about 1.4 MB at most.
  const photoPostBody = limitBody(photoPostMaxBytes);
  const limitFor = (c: Context) => {
    if (c.req.path.startsWith('/api/bookings/statements/')) return statementBody;
    if (photoPost.test(c.req.path) && c.req.header('content-type')?.startsWith('multipart/form-data'))
      return photoPostBody;
    return smallBody;
  };
  app.on(['POST', 'PUT', 'PATCH', 'DELETE'], '/api/*', requireSameOrigin(deps.config.publicUrl), (c, next) =>
    limitFor(c)(c, next),
  );
  // Counted against the signed-in user, or a visitor's address: the session is read here for the one time the
  // request reads it.
  const readLimit =
    deps.config.rateLimit &&
    createReadLimit({
      perMinute: deps.config.readsPerMinute,
      trustedProxies: deps.config.trustedProxies,
      readMe: (c) => readSessionOnce(c, readMe),
    });
  if (readLimit) app.get('/api/*', readLimit.reads);

  app.route('/api/auth', createAuthRoutes({ auth, env: deps.config }));
  // The answers that can run to many KB and that `answerJson` (etag.ts, every list's) does not compress itself: a
  // question with its answers, the data export, what a write returns. Not /api/events (a stream, sent event by
  // event), nor the catalogue, compressed once per change (catalogue.cache.ts).
  // Each feature says which (its `compressed`, features.ts).
  for (const scope of features.flatMap((f) => f.compressed ?? [])) on(app, scope, compressJson());
  // Who is signed in (`c.get('me')`), read once per request for the route groups that act for someone: each
  // feature's `signedIn`, and the live events' stream.
  for (const scope of features.flatMap((f) => f.signedIn ?? [])) on(app, scope, withMe);
  app.use('/api/events', withMe);
  // After the session middleware: a reader's position tells only of notices they may hear (docs/api.md).
  app.on('GET', '/api/*', livePosition(streamHub));
  app.route('/', createApiRoutes({ deps, auth, catalogue, health, personalData }));
  // Not part of ApiRoutes: a stream is read with EventSource, not the typed client.
  app.route(
    '/api/events',
    createEventsRoutes({
      hub: streamHub,
      readMe,
      limits: deps.config.streamLimits,
      trustedProxies: deps.config.trustedProxies,
    }),
  );
  app.all('/api/*', () => {
    throw createError({ code: 'request.not_found', message: 'There is no such API route.', status: 404 });
  });

  app.use(pageSecurityHeaders(deps.config.production));
  // The signed-in pages are sent rendered for the user the session names (http/static.ts), and a question's page
  // for them too (qa.pages.ts). Each counts as a few reads (read-limit.ts `pageReads`).
  for (const pagePath of [...Object.keys(signedInPages), ...features.flatMap((f) => f.pages?.signedIn ?? [])]) {
    if (readLimit) app.get(pagePath, readLimit.pages);
    app.get(pagePath, withMe);
  }
  // The pages rendered per request: the board, for visitors with its questions (docs/decisions/0024).
  const renderPage = createPageRenderer(clientDir, { origin: deps.config.publicUrl, renderApp });
  for (const pages of features.flatMap((f) => f.pages ?? [])) app.route('/', pages.create(deps, renderPage));
  app.route(
    '/',
    createStaticRoutes(clientDir, {
      moduleExists: async (slug) => (await findModuleBySlug(catalogue, slug)) !== undefined,
    }),
  );
  app.onError(errorHandler(deps.logger));
  const prepared = createPreparedAnswers(
    deps.logger,
    { '/api/health': preparedHealth(health), '/api/modules': preparedCatalogue(catalogue) },
    () => ['live-position', streamHub.position()],
  );
  return { app, prepared };
}

/** Registers `handler` for the requests `scope` names: every method, or the ones it lists. */
function on(app: Hono, { path, methods }: RouteScope, handler: MiddlewareHandler) {
  if (methods) app.on([...methods], path, handler);
  else app.use(path, handler);
}

/** The JSON API but /api/auth (better-auth's front, auth.routes.ts), chained so its types reach `ApiRoutes`. */
function createApiRoutes({
  deps,
  auth,
  catalogue,
  health,
  personalData,
}: {
  deps: Deps;
  auth: Auth;
  catalogue: CatalogueDeps;
  health: HealthCheck;
  personalData: readonly PersonalDataPart[];
}) {
  return new Hono()
    .route('/api/health', createHealthRoutes(health))
    .route('/api/config', createConfigRoutes(deps))
    .route('/api/me', createMeRoutes())
    .route('/api/me', createProfileRoutes({ deps, auth, personalData }))
    .route('/api/me/calendar-feed', createCalendarFeedRoutes(deps))
    .route('/api/me', createNoticePreferenceRoutes(deps))
    .route('/api/notices', createNoticeRoutes(deps))
    .route('/api/admin/deliveries', createDeliveryAdminRoutes(deps))
    .route('/api/modules', createCatalogueRoutes(catalogue))
    .route('/api/questions', createQaRoutes(deps))
    .route('/api/questions', createSessionOfferRoutes(deps))
    .route('/api/photos', createPhotoRoutes(deps))
    .route('/api/bookings', createBookingRoutes(deps))
    .route('/api/groups', createGroupRoutes(deps))
    .route('/api/packages', createPackageRoutes(deps))
    .route('/api/payfast', createPayFastRoutes(deps))
    .route('/api/whatsapp', createWhatsAppRoutes(deps))
    .route('/api/staff', createStaffRoutes(deps))
    .route('/api/testimonials', createTestimonialsRoutes(deps))
    .route('/api/availability', createAvailabilityRoutes(deps))
    .route('/api/calendar', createCalendarRoutes(deps))
    .route('/api/session', createSessionRoutes());
}

/** The API's routes, paths, inputs and answers, for a typed client: `hc<ApiRoutes>(origin)` (`import type` only). */
export type ApiRoutes = ReturnType<typeof createApiRoutes>;
