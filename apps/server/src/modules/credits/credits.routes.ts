import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import type { CreditPackage } from '../../config.ts';
import { route } from '../../http/route.ts';
import { toPackageView } from '../payments/payments.mapper.ts';
import type { CreditLedger } from './credit-ledger.service.ts';

/** The balance the header polls, credit packages (public) and the user's ledger history. */
export function creditsRoutes(
  app: FastifyInstance,
  deps: { ledger: CreditLedger; packages: () => readonly CreditPackage[] },
): void {
  route(app, contracts.creditBalance, async ({ user }) => ({ balance: await deps.ledger.balance(user.id) }), {
    preHandler: app.requireUser,
  });
  route(app, contracts.creditPackages, async () => ({ packages: deps.packages().map(toPackageView) }));

  route(
    app,
    contracts.creditHistory,
    async ({ user, query }) => {
      // The contract admits only 1–15 decimal digits: always a safe integer.
      const beforeId = query.cursor === undefined ? undefined : Number(query.cursor);
      const rows = await deps.ledger.history(user.id, { beforeId, limit: query.limit + 1 });
      const page = rows.slice(0, query.limit);
      return {
        items: page.map((e) => ({
          id: String(e.id),
          amount: e.amount,
          reason: e.reason,
          reference: e.reference,
          created_at: e.createdAt.toISOString(),
          balance_after: e.balanceAfter,
        })),
        next_cursor: rows.length > query.limit ? String(page[page.length - 1]!.id) : null,
      };
    },
    { preHandler: app.requireUser },
  );
}
