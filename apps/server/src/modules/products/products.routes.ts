import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { toCheckoutView } from '../payments/payments.mapper.ts';
import type { ProductsService } from './products.service.ts';

/** The products on sale, buying one, and the buyer's purchases (My products). */
export function productsRoutes(app: FastifyInstance, products: ProductsService): void {
  const auth = { preHandler: app.requireUser };

  route(app, contracts.products, async () => products.list());

  route(
    app,
    contracts.buyProduct,
    async ({ user, params, body }) => {
      const bought = await products.buy(user.id, params.id, body);
      return { ...bought, checkout: bought.checkout && toCheckoutView(bought.checkout) };
    },
    auth,
  );

  route(app, contracts.myProducts, async ({ user }) => products.mine(user.id), auth);

  route(app, contracts.myProduct, async ({ user, params }) => products.one(user.id, params.id), auth);

  route(
    app,
    contracts.attachPhotos,
    async ({ user, params, body }) => products.attachPhotos(user.id, params.id, body.set_id),
    auth,
  );

  route(
    app,
    contracts.downloadPurchase,
    async ({ user, params }, reply) => {
      const zip = await products.download(user.id, params.id);
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${zip.filename}"`)
        .header('cache-control', 'private, no-store')
        .send(zip.body);
    },
    auth,
  );
}
