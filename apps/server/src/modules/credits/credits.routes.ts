import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import type { CreditPackage } from '../../config.ts';
import { route } from '../../http/route.ts';
import { toPackageView } from './credits.mapper.ts';
import type { CreditLedger } from './credit-ledger.service.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database } from '../../db/client.ts';
import { describeEntries } from './credit-history.ts';

/** The balance the header polls, credit packages (public) and the user's ledger history. */
export function creditsRoutes(
  app: FastifyInstance,
  deps: {
    ledger: CreditLedger;
    packages: () => readonly CreditPackage[];
    /** For the history's descriptions: the jobs and payments behind entries, and links to results. */
    db: Database;
    storage: Storage;
    modelName: (id: string) => string | undefined;
  },
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
        items: await describeEntries(deps, user.id, page),
        next_cursor: rows.length > query.limit ? String(page[page.length - 1]!.id) : null,
      };
    },
    { preHandler: app.requireUser },
  );
}
