import { queryOptions, useQuery } from '@tanstack/react-query';
import { transactionsContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const TRANSACTIONS_LIMIT = 20;

export const getTransactions = (limit: number, signal?: AbortSignal) =>
  api.call(transactionsContract, { query: { limit }, signal });

export const transactionsQueryKey = ['credits', 'transactions'] as const;

export const getTransactionsQueryOptions = (limit = TRANSACTIONS_LIMIT) =>
  queryOptions({
    queryKey: [...transactionsQueryKey, limit] as const,
    queryFn: ({ signal }) => getTransactions(limit, signal),
  });

export const useTransactions = (limit = TRANSACTIONS_LIMIT) => useQuery(getTransactionsQueryOptions(limit));
