import { queryOptions, useQuery } from '@tanstack/react-query';
import { legalDocumentContract, type LegalPage } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const getLegalDocumentQueryOptions = (page: LegalPage) =>
  queryOptions({
    queryKey: ['legal', page] as const,
    queryFn: ({ signal }) => api.call(legalDocumentContract, { params: { page }, signal }),
  });

export const useLegalDocument = (page: LegalPage) => useQuery(getLegalDocumentQueryOptions(page));
