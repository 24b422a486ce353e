import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { toolRunsContract, type Tool, type ToolRunView } from '@lumina/contracts';
import { api } from '@/lib/api-client';

/** Every Studio-history query lives under this key (one per tool). */
export const toolRunsQueryKey = ['studio', 'runs'] as const;

export const RUNS_PAGE_SIZE = 6;
/** While a run in the list is still going the list refreshes on its own this often. */
export const RUNS_POLL_MS = 3_000;

const isActive = (run: Pick<ToolRunView, 'status'>) => run.status === 'queued' || run.status === 'running';

export const toolRunsQueryOptions = (tool: Tool) =>
  infiniteQueryOptions({
    queryKey: [...toolRunsQueryKey, tool],
    queryFn: ({ pageParam, signal }) =>
      api.call(toolRunsContract, { query: { tool, limit: RUNS_PAGE_SIZE, cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: (query) =>
      (query.state.data?.pages ?? []).some((page) => page.items.some(isActive)) ? RUNS_POLL_MS : false,
  });

/** The person's recent runs of one tool, from the server (so they survive a reload), newest first. */
export const useToolRuns = (tool: Tool) => useInfiniteQuery(toolRunsQueryOptions(tool));
