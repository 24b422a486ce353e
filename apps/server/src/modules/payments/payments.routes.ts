import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import {
  toCheckoutView,
  toDevCheckoutView,
  toDevRedirectView,
  toPaymentView,
  toProcessResultView,
} from './payments.mapper.ts';
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
      return toCheckoutView(
        await payments.startCheckout(user.id, { item: payments.packageItem(body.package_id) }),
      );
    },
    auth,
  );

  route(
    app,
    contracts.createCheckoutSession,
    async ({ user, body }) => {
      const checkout = await payments.startCheckout(user.id, {
        item: payments.packageItem(body.package_id),
        successUrl: body.success_url,
        cancelUrl: body.cancel_url,
      });
      return toCheckoutView(checkout);
    },
    auth,
  );

  route(
    app,
    contracts.processPayment,
    async ({ user, body }) => {
      return toProcessResultView(await payments.processPayment(user.id, body.session_id));
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
        return toDevCheckoutView(await payments.devSession(user.id, params.session_id));
      },
      auth,
    );
    route(
      app,
      contracts.devCheckoutComplete,
      async ({ user, params }) => {
        return toDevRedirectView(await payments.devComplete(user.id, params.session_id));
      },
      auth,
    );
    route(
      app,
      contracts.devCheckoutCancel,
      async ({ user, params }) => {
        return toDevRedirectView(await payments.devCancel(user.id, params.session_id));
      },
      auth,
    );
  }
}
