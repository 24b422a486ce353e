import { randomUUID } from 'node:crypto';
import type { Database } from '../src/db/client.ts';
import { users } from '../src/db/schema/index.ts';

/** Row builders for tests: each makes a valid row with unique values unless told otherwise. */
export async function createUser(db: Database, overrides: { email?: string } = {}) {
  const [user] = await db
    .insert(users)
    .values({ email: overrides.email ?? `user-${randomUUID()}@example.test` })
    .returning();
  return user!;
}
