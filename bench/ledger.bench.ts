/**
 * Ledger under load (issue 6): 200 concurrent spends from 20 people on PostgreSQL, through the real
 * CreditLedger (one conditional UPDATE per spend). Each person holds 8 credits and asks for 10 spends
 * of 1, so every person also meets "not enough credits" while racing their own spends. Afterwards the
 * invariant is checked: each balance equals the sum of that person's ledger entries, none negative,
 * and exactly 8 spends per person went through.
 *
 *   npx tsx bench/ledger.bench.ts
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { users } from '../apps/server/src/db/schema/index.ts';
import { machineNote, ms, percentile, startBenchEnv, table, writeSection } from './support.ts';

const PEOPLE = 20;
const SPENDS_EACH = 10;
const CREDITS_EACH = 8;
const ROUNDS = 5;

const env = await startBenchEnv('postgres', {
  workers: false,
  env: { WELCOME_CREDITS: '0', DATABASE_POOL_SIZE: '20' },
});
const { db } = env.container.database;
const ledger = env.container.services.ledger;
const loadBefore = os.loadavg()[0]!;

const rows: string[][] = [];
const allLatencies: number[] = [];
let violations = 0;
for (let round = 0; round < ROUNDS; round++) {
  const people = await db
    .insert(users)
    .values(Array.from({ length: PEOPLE }, () => ({ email: `ledger-${randomUUID()}@bench.test` })))
    .returning({ id: users.id });
  for (const p of people) {
    await ledger.grant({
      userId: p.id,
      amount: CREDITS_EACH,
      reason: 'purchase',
      idempotencyKey: `bench:${p.id}`,
    });
  }
  const latencies: number[] = [];
  let ok = 0;
  let refused = 0;
  const started = performance.now();
  await Promise.all(
    people.flatMap((p) =>
      Array.from({ length: SPENDS_EACH }, async (_, i) => {
        const t = performance.now();
        try {
          await ledger.spend({ userId: p.id, amount: 1, reference: `bench:${p.id}:${i}` });
          ok++;
        } catch {
          refused++;
        } finally {
          latencies.push(performance.now() - t);
        }
      }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  allLatencies.push(...latencies);

  // The invariant, straight from the tables.
  const check = await db.execute(sql`
    select count(*)::int as bad from credit_balances b
    where b.balance < 0
       or b.balance <> (select coalesce(sum(amount), 0) from credit_ledger l where l.user_id = b.user_id)`);
  const bad = Number((check.rows[0] as { bad: number }).bad);
  const expectedOk = PEOPLE * CREDITS_EACH;
  if (bad > 0 || ok !== expectedOk) violations++;
  rows.push([
    String(round + 1),
    `${ok} / ${refused}`,
    `${((PEOPLE * SPENDS_EACH) / seconds).toFixed(0)} spends/s`,
    ms(percentile(latencies, 50)),
    ms(percentile(latencies, 95)),
    bad === 0 && ok === expectedOk ? 'holds' : `VIOLATED (${bad} bad balances, ${ok} spends)`,
  ]);
}
const loadAfter = os.loadavg()[0]!;
await env.close();

const body = `Command: \`npx tsx bench/ledger.bench.ts\`. ${PEOPLE} people × ${SPENDS_EACH} concurrent spends of 1 credit
(200 at once) against ${CREDITS_EACH} credits each, on PostgreSQL (pool of 20), ${ROUNDS} rounds. Exactly
${PEOPLE * CREDITS_EACH} spends must succeed per round; afterwards every balance must equal the sum of its
ledger entries and none may be negative.

${table(['round', 'succeeded / refused', 'throughput', 'p50', 'p95', 'invariant'], rows)}

All rounds: p50 ${ms(percentile(allLatencies, 50))}, p95 ${ms(percentile(allLatencies, 95))}.

${machineNote(loadBefore, loadAfter)}`;
writeSection('Ledger under load', body);
console.log(body);
process.exit(violations > 0 ? 1 : 0);
