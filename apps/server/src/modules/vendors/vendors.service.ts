import type { OperatorVendor, OperatorVendorsResponse, VendorReadiness } from '@lumina/contracts';
import { PROVIDERS } from '../../adapters/providers/catalogue.ts';
import type { ProviderName } from '../../adapters/providers/text-to-image.ts';
import { vendorTitle } from '../../adapters/providers/vendors.ts';
import { AppError } from '../../errors.ts';
import type { ModelCatalogue } from '../models/model-catalogue.ts';
import type { BreakerSettings, VendorBreaker, VendorHealth } from './vendor-breaker.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Vendors as readiness and the operator console see them: each breaker's state, its recent failures,
 * and the models that run on it (as their own vendor or as an alternate).
 */
export class VendorsService {
  constructor(
    private readonly deps: {
      breaker: VendorBreaker;
      catalogue: ModelCatalogue;
      settings: BreakerSettings;
      /** Whether the person is an operator (ADMIN_EMAILS; modules/users decides). */
      isOperator(userId: string): Promise<boolean>;
    },
  ) {}

  private configuredVendors(): ProviderName[] {
    return PROVIDERS.filter((v) => this.deps.catalogue.configured(v));
  }

  /** Each configured vendor's breaker, for `/api/ready`. */
  async readiness(): Promise<VendorReadiness[]> {
    const health = await this.deps.breaker.list(this.configuredVendors());
    return health.map((h) => ({
      name: h.vendor as ProviderName,
      label: vendorTitle(h.vendor),
      state: h.state,
      consecutive_failures: h.consecutiveFailures,
      retry_at: iso(h.retryAt),
    }));
  }

  async operatorView(userId: string): Promise<OperatorVendorsResponse> {
    await this.mustBeOperator(userId);
    // Every vendor with a model in the catalogue or a key here, so an operator sees a vendor an
    // alternate names even before its key is set.
    const models = this.deps.catalogue.all();
    const named = new Set<ProviderName>(this.configuredVendors());
    for (const m of models)
      for (const v of [m.provider, ...m.alternates.map((a) => a.provider)]) named.add(v);
    const vendors = PROVIDERS.filter((v) => named.has(v));
    const health = await this.deps.breaker.list(vendors);
    return {
      breaker: {
        failures: this.deps.settings.failures,
        cooldown_seconds: this.deps.settings.cooldownSeconds,
      },
      vendors: health.map((h) => this.view(h)),
    };
  }

  async reset(userId: string, vendor: ProviderName): Promise<OperatorVendor> {
    await this.mustBeOperator(userId);
    await this.deps.breaker.reset(vendor);
    return this.view(await this.deps.breaker.get(vendor));
  }

  private view(h: VendorHealth): OperatorVendor {
    const vendor = h.vendor as ProviderName;
    const { catalogue } = this.deps;
    const models = catalogue.all().flatMap((m) => {
      const order = [{ provider: m.provider, providerModel: m.providerModel }, ...m.alternates];
      const mine = order.find((r) => r.provider === vendor);
      if (!mine) return [];
      return [
        {
          id: m.id,
          display_name: m.displayName,
          capability: m.capability,
          role: mine.provider === m.provider ? ('primary' as const) : ('alternate' as const),
          provider_model: mine.providerModel,
          vendors: order.map((r) => ({
            provider: r.provider,
            provider_model: r.providerModel,
            configured: catalogue.adapter(r.provider, m.capability) !== undefined,
          })),
        },
      ];
    });
    return {
      name: vendor,
      label: vendorTitle(vendor),
      configured: catalogue.configured(vendor),
      state: h.state,
      consecutive_failures: h.consecutiveFailures,
      opened_at: iso(h.openedAt),
      retry_at: iso(h.retryAt),
      last_error: h.lastError,
      last_failure_at: iso(h.lastFailureAt),
      last_success_at: iso(h.lastSuccessAt),
      recent_failures: h.recentFailures.map((f) => ({ at: f.at, error: f.error, job_id: f.jobId })),
      models,
    };
  }

  private async mustBeOperator(userId: string) {
    if (!(await this.deps.isOperator(userId))) {
      throw new AppError(
        'FORBIDDEN',
        'Only operators of this server can see vendors and reset their breakers.',
      );
    }
  }
}
