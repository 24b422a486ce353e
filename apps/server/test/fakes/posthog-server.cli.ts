/**
 * Runs the fake PostHog capture endpoint as its own process for the browser tests (playwright.config.ts):
 * `node --import tsx apps/server/test/fakes/posthog-server.cli.ts --port 3603`.
 * `GET /_test/events` lists captured events; `POST /_test/reset` forgets them.
 */
import { parseArgs } from 'node:util';
import { startFakePostHog } from './posthog-server.ts';

const { values } = parseArgs({ options: { port: { type: 'string', default: '3103' } } });
const fake = await startFakePostHog({ port: Number(values.port) });
console.log(`fake PostHog at ${fake.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
