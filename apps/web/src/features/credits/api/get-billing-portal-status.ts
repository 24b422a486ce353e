import { queryOptions, useQuery } from '@tanstack/react-query';
import { billingPortalStatusContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const getBillingPortalStatus = (signal?: AbortSignal) =>
  api.call(billingPortalStatusContract, { signal });

export const getBillingPortalStatusQueryOptions = () =>
  queryOptions({
    queryKey: ['credits', 'billing-portal'] as const,
    queryFn: ({ signal }) => getBillingPortalStatus(signal),
  });

/** Whether "Manage billing" can open the Stripe portal for the signed-in person, and why not. */
export const useBillingPortalStatus = () => useQuery(getBillingPortalStatusQueryOptions());
