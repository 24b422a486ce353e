import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Container } from './container.ts';
import { fileRoutes } from './modules/files/files.routes.ts';
import { generationRoutes } from './modules/generation/generation.routes.ts';
import { modelsRoutes } from './modules/models/models.routes.ts';
import { trainingRoutes } from './modules/training/training.routes.ts';
import { jobsRoutes } from './modules/jobs/jobs.routes.ts';
import { providerWebhookRoutes } from './modules/jobs/provider-webhooks.routes.ts';
import { imagesRoutes } from './modules/images/images.routes.ts';
import { creditsRoutes } from './modules/credits/credits.routes.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { reviewsRoutes } from './modules/reviews/reviews.routes.ts';
import { productsRoutes } from './modules/products/products.routes.ts';
import { toolsRoutes } from './modules/tools/tools.routes.ts';
import { toolRunsRoutes } from './modules/tool-runs/tool-runs.routes.ts';
import { videosRoutes } from './modules/videos/videos.routes.ts';
import { uploadsRoutes } from './modules/uploads/uploads.routes.ts';
import { trainingSetsRoutes } from './modules/training-sets/training-sets.routes.ts';
import { onboardingRoutes } from './modules/onboarding/onboarding.routes.ts';
import { referralsRoutes } from './modules/referrals/referrals.routes.ts';
import { registerMultipart } from './plugins/multipart.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { vendorsRoutes } from './modules/vendors/vendors.routes.ts';
import { siteRoutes } from './modules/site/site.routes.ts';
import { registerAuth } from './modules/auth/auth.routes.ts';
import { EXPOSED_HEADERS } from './modules/auth/session.transport.ts';
import { answerClientError, answerFrameworkError, registerErrorHandler } from './plugins/error-handler.ts';
import { registerClosedConnectionGuard } from './plugins/closed-connections.ts';
import { registerConnectionDrain } from './plugins/connection-drain.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { proxyTrust } from './http/proxy-trust.ts';
import { requestIds } from './http/request-id.ts';
import { registerRequestDrain } from './plugins/request-drain.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerLimits } from './modules/limits/limits.plugin.ts';
import { StreamSlots } from './modules/limits/stream-slots.ts';

/** Builds the HTTP app on a container. No listen here, so tests drive it with inject() or a random port. */
export async function buildApp(container: Container): Promise<FastifyInstance> {
  const { config } = container;
  const trust = proxyTrust(config.trustProxy);
  const app = Fastify({
    // Typed as the base logger so plugins and route helpers share one FastifyInstance type.
    loggerInstance: container.log as FastifyBaseLogger,
    // A well-formed request id from a trusted proxy is kept so logs line up across hops; otherwise we make one.
    genReqId: requestIds(trust),
    bodyLimit: 1024 * 1024,
    // A URL that cannot be decoded (a broken percent-escape) fails before routing: send it through the
    // one error handler so it is a 400 like any other, with a detail.
    frameworkErrors: answerFrameworkError,
    // Bytes Node's HTTP parser refuses (a malformed chunk size): the same error shape, not Fastify's.
    clientErrorHandler: answerClientError,
    // Requests that arrive while the server closes are refused by registerConnectionDrain, in our shape.
    return503OnClosing: false,
    // Off unless TRUST_PROXY names the proxies in front: request.ip (per-IP limits) and
    // request.protocol (HSTS) would otherwise come from headers any client can write.
    trustProxy: trust,
    // Per-request lines cost CPU on a busy server (bench/gallery.bench.ts); errors are logged either way.
    logController: new LogController({ disableRequestLogging: !config.logRequests }),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandler(app);
  registerRequestDrain(app, config.shutdownTimeoutMs);
  registerClosedConnectionGuard(app);

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Plus the hosts of the "Sign in with Lumina" clients' logos, which the sign-in card shows.
        imgSrc: ["'self'", 'data:', 'blob:', ...oauthClientLogoOrigins(config)],
        mediaSrc: ["'self'", 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        // The analytics host (PostHog) when configured: the browser sends events there.
        connectSrc: ["'self'", ...config.corsOrigins, ...(config.analytics ? [config.analytics.host] : [])],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // Sent by registerSecurityHeaders, and only over HTTPS.
    strictTransportSecurity: false,
  });
  registerSecurityHeaders(app);
  if (config.corsOrigins.length > 0) {
    await app.register(fastifyCors, {
      origin: [...config.corsOrigins],
      credentials: true,
      // Requested headers are reflected (rid, fdi-version, st-auth-mode, anti-csrf, authorization); the SDK
      // must be able to read the session headers or it believes there is no session (docs/reference/supertokens-fdi/CONTRACT.md §1.4).
      exposedHeaders: [...EXPOSED_HEADERS],
    });
  }
  await registerOpenApi(app, config.publicUrl);
  await registerMultipart(app, { maxBytes: config.uploads.maxBytes });
  // Before any route: it adds its hooks to routes as they are registered.
  await registerLimits(app, { config, db: container.database.db });
  // Sign-in layer first: it decorates `app.requireUser`, which product routes use.
  await registerAuth(app, container.services.auth, container.database.db);

  systemRoutes(app, container);
  vendorsRoutes(app, container.services.vendors.service);
  siteRoutes(app, config);
  fileRoutes(app, { storage: container.storage, secret: container.fileUrlSecret });
  const { generation, jobs, images, ledger, models, webhooks } = container.services;
  generationRoutes(app, { generation });
  jobsRoutes(app, {
    jobs: jobs.service,
    bus: jobs.bus,
    streamSlots: new StreamSlots(container.database.db, config.limits.streamsPerUser),
  });
  modelsRoutes(app, { catalogue: models, own: container.services.training.personal });
  trainingRoutes(app, container.services.training.service);
  imagesRoutes(app, images.service, images.counter);
  // Whatever a person changes through this process (an upload, a tool run's inputs, an image) drops
  // their cached listings before the answer goes out, so their next listing shows it; other
  // processes hear of it from the database's notices (modules/images/listing-cache.ts).
  app.addHook('onSend', async (request) => {
    if (request.user && request.method !== 'GET' && request.method !== 'HEAD')
      images.gallery.changed(request.user.id);
  });
  await providerWebhookRoutes(app, {
    jobs: jobs.service,
    fal: webhooks.fal,
    replicate: webhooks.replicate,
  });

  const { tools } = container.services;
  toolsRoutes(app, { tools: tools.service, uploads: config.uploads });
  videosRoutes(app, container.services.videos);
  toolRunsRoutes(app, tools.runs);
  uploadsRoutes(app, {
    uploads: tools.uploads,
    storage: container.storage,
    maxBytes: config.uploads.maxBytes,
    maxPixels: config.uploads.maxPixels,
    heicMaxPixels: config.uploads.heicMaxPixels,
  });

  trainingSetsRoutes(app, {
    trainingSets: container.services.trainingSets,
    storage: container.storage,
    maxBytes: config.uploads.maxBytes,
  });
  onboardingRoutes(app, {
    onboarding: container.services.onboarding,
    trainingSets: container.services.trainingSets,
    storage: container.storage,
    maxBytes: config.uploads.maxBytes,
  });

  creditsRoutes(app, {
    ledger,
    packages: () => container.services.payments.packages(),
    db: container.database.db,
    storage: container.storage,
    modelName: (id) => models.find(id)?.displayName,
  });
  await paymentsRoutes(app, container.services.payments);
  reviewsRoutes(app, container.services.reviews);
  productsRoutes(app, container.services.products.service);
  referralsRoutes(app, container.services.referrals);

  await registerWebApp(app, config.webDistDir);
  // Last: its preClose hook must follow the routes' own (see the plugin).
  registerConnectionDrain(app, config.shutdownLingerMs);
  return app;
}

/** Origins of the logos of OAUTH_CLIENTS_JSON clients (the sign-in card shows the app it signs in to). */
function oauthClientLogoOrigins(config: Container['config']): string[] {
  const origins = config.auth.oauthClients.flatMap((c) => (c.logoUri ? [new URL(c.logoUri).origin] : []));
  return [...new Set(origins)].filter((o) => o.startsWith('http'));
}
