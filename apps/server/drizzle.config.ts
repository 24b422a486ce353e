import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema files and committed; they are applied at start-up.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './src/db/migrations',
});
