import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { toPaymentView } from './payments.mapper.ts';
import type { PaymentsService } from './payments.service.ts';

/** Purchases, the success-page confirmation, the billing portal, the Stripe webhook and the dev checkout. */
export async function paymentsRoutes(app: FastifyInstance, payments: PaymentsService): Promise<void> {
  const auth = { preHandler: app.requireUser };

  route(
    app,
    contracts.transactions,
    async ({ user, query }) => ({
      payments: (await payments.transactions(user.id, query.limit)).map(toPaymentView),
    }),
    auth,
  );

  route(
    app,
    contracts.purchaseCredits,
    async ({ user, body }) => {
      const { url, sessionId } = await payments.startCheckout(user.id, { packageId: body.package_id });
      return { url, session_id: sessionId };
    },
    auth,
  );

  route(
    app,
    contracts.createCheckoutSession,
    async ({ user, body }) => {
      const { url, sessionId } = await payments.startCheckout(user.id, {
        packageId: body.package_id,
        successUrl: body.success_url,
        cancelUrl: body.cancel_url,
      });
      return { url, session_id: sessionId };
    },
    auth,
  );

  route(
    app,
    contracts.processPayment,
    async ({ user, body }) => {
      const result = await payments.processPayment(user.id, body.session_id);
      return { status: result.status, credits_added: result.creditsAdded, balance: result.balance };
    },
    auth,
  );

  route(app, contracts.billingPortalStatus, async ({ user }) => payments.portalAvailability(user.id), auth);

  route(
    app,
    contracts.customerPortal,
    async ({ user }) => ({ url: await payments.portalUrl(user.id) }),
    auth,
  );

  await app.register(async (scope) => {
    // Stripe signs the exact bytes it sent: keep the body raw (see provider-webhooks.routes.ts).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    route(scope, contracts.stripeWebhook, async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.from('');
      const signature = request.headers['stripe-signature'];
      await payments.handleWebhook(raw, typeof signature === 'string' ? signature : undefined);
      return { received: true as const };
    });
  });

  if (payments.mode === 'development') {
    route(
      app,
      contracts.devCheckoutSession,
      async ({ user, params }) => {
        const p = await payments.devSession(user.id, params.session_id);
        return {
          session_id: p.stripeSessionId,
          package_id: p.packageId,
          package_name: p.packageName,
          credits: p.credits,
          amount_cents: p.amountCents,
          currency: p.currency,
          status: p.status,
          success_url: p.successUrl.replace('{CHECKOUT_SESSION_ID}', p.stripeSessionId),
          cancel_url: p.cancelUrl,
        };
      },
      auth,
    );
    route(
      app,
      contracts.devCheckoutComplete,
      async ({ user, params }) => {
        const r = await payments.devComplete(user.id, params.session_id);
        return { status: r.status, redirect_url: r.redirectUrl };
      },
      auth,
    );
    route(
      app,
      contracts.devCheckoutCancel,
      async ({ user, params }) => {
        const r = await payments.devCancel(user.id, params.session_id);
        return { status: r.status, redirect_url: r.redirectUrl };
      },
      auth,
    );
  }
}
