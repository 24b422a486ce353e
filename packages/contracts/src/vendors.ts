import { z } from 'zod';
import { defineContract } from './contract.ts';
import { Vendor } from './models.ts';

/**
 * Each vendor's circuit breaker. `closed`: used. `open`: it failed repeatedly and is skipped until
 * `retry_at`. `half-open`: the cool-down is over; one job at a time tries it, and its outcome decides.
 */
export const BreakerState = z.enum(['closed', 'open', 'half-open']);
export type BreakerState = z.infer<typeof BreakerState>;

/** A configured vendor's state as `/api/ready` lists it. */
export const VendorReadiness = z
  .object({
    name: Vendor,
    label: z.string().describe('The vendor as people read it, e.g. "fal.ai"'),
    state: BreakerState,
    consecutive_failures: z.int(),
    retry_at: z.iso.datetime().nullable().describe('When an open breaker lets jobs try the vendor again'),
  })
  .meta({ id: 'VendorReadiness' });
export type VendorReadiness = z.infer<typeof VendorReadiness>;

export const VendorFailureView = z.object({
  at: z.iso.datetime(),
  error: z.string().describe("The vendor's own message, for operators"),
  job_id: z.uuid().nullable(),
});

/** A model that runs on a vendor, as its own vendor or as an alternate. */
export const VendorModelUse = z.object({
  id: z.string(),
  display_name: z.string(),
  capability: z.string(),
  role: z.enum(['primary', 'alternate']),
  provider_model: z.string().describe("This vendor's model name"),
  /** The model's whole failover order: its own vendor first, then its alternates. */
  vendors: z.array(z.object({ provider: Vendor, provider_model: z.string(), configured: z.boolean() })),
});

export const OperatorVendor = z
  .object({
    name: Vendor,
    label: z.string(),
    configured: z.boolean().describe('Whether this server has the vendor set up (key or URL)'),
    state: BreakerState,
    consecutive_failures: z.int(),
    opened_at: z.iso.datetime().nullable(),
    retry_at: z.iso.datetime().nullable(),
    last_error: z.string().nullable(),
    last_failure_at: z.iso.datetime().nullable(),
    last_success_at: z.iso.datetime().nullable(),
    recent_failures: z.array(VendorFailureView),
    models: z.array(VendorModelUse),
  })
  .meta({ id: 'OperatorVendor' });
export type OperatorVendor = z.infer<typeof OperatorVendor>;

export const OperatorVendorsResponse = z
  .object({
    breaker: z.object({
      failures: z.int().describe('Temporary failures in a row that open a breaker'),
      cooldown_seconds: z.int(),
    }),
    vendors: z.array(OperatorVendor),
  })
  .meta({ id: 'OperatorVendors' });
export type OperatorVendorsResponse = z.infer<typeof OperatorVendorsResponse>;

export const operatorVendorsContract = defineContract({
  method: 'GET',
  path: '/api/operator/vendors',
  summary: "Operators only: each vendor's circuit breaker, its recent failures and the models that use it",
  tags: ['operator'],
  response: OperatorVendorsResponse,
});

export const resetVendorContract = defineContract({
  method: 'POST',
  path: '/api/operator/vendors/{name}/reset',
  summary: "Operators only: close a vendor's circuit breaker now, so jobs use it again",
  tags: ['operator'],
  params: z.object({
    name: z.enum(Vendor.options, { error: `Unknown vendor. Vendors are ${Vendor.options.join(', ')}.` }),
  }),
  response: OperatorVendor,
});
