import { queryOptions, useQuery } from '@tanstack/react-query';
import { toolsContract } from '@lumina/contracts';
import { api, type CallResult } from '@/lib/api-client';

export type ToolCatalogue = CallResult<typeof toolsContract>;
export type ToolModel = ToolCatalogue['tools'][number]['models'][number];

export const getTools = (signal?: AbortSignal) => api.call(toolsContract, { signal });

export const getToolsQueryOptions = () =>
  queryOptions({
    queryKey: ['tools'],
    queryFn: ({ signal }) => getTools(signal),
    staleTime: 5 * 60_000,
  });

export const useTools = () => useQuery(getToolsQueryOptions());
