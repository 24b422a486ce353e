import { z } from 'zod';
import { defineContract } from './contract.ts';
import { VendorReadiness } from './vendors.ts';

export const HealthResponse = z.object({ status: z.literal('ok') }).meta({ id: 'HealthResponse' });

export const ReadyResponse = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    checks: z.object({ database: z.boolean(), queue: z.boolean(), storage: z.boolean() }),
    vendors: z
      .array(VendorReadiness)
      .describe(
        "Each configured vendor's circuit breaker: information, never a reason for 503 (another vendor or the local engine may still serve)",
      ),
  })
  .meta({ id: 'ReadyResponse' });

export const healthContract = defineContract({
  method: 'GET',
  path: '/api/health',
  summary: 'Liveness: the process is up',
  tags: ['system'],
  auth: false,
  response: HealthResponse,
});

export const readyContract = defineContract({
  method: 'GET',
  path: '/api/ready',
  summary:
    'Readiness: the database, the job queue and file storage are reachable (503 when not); lists each vendor’s breaker',
  tags: ['system'],
  auth: false,
  response: ReadyResponse,
  responses: { 503: ReadyResponse },
});
