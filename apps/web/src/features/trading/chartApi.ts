import { useQuery } from '@tanstack/react-query';
import type { ChartSettings, DrawingDto, DrawingsResponse, IndicatorConfig } from '@platform/domain';
import { apiGet } from '../../api/client.ts';

/** The trader's chart settings and drawings: the user's own, kept on the server (they follow the trader). */
export const chartKeys = {
  settings: ['chart', 'settings'] as const,
  drawings: (symbol: string) => ['chart', 'drawings', symbol] as const,
};

const NONE: readonly never[] = [];

/** The indicators on the trader's charts (none until they add one; none either while the server cannot say). */
export function useChartIndicators(): readonly IndicatorConfig[] {
  const { data } = useQuery({
    queryKey: chartKeys.settings,
    queryFn: () => apiGet<ChartSettings>('/dashboard/chart/settings'),
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
  return data?.indicators ?? NONE;
}

/** The trader's drawings on one instrument. */
export function useChartDrawings(symbol: string): readonly DrawingDto[] {
  const { data } = useQuery({
    queryKey: chartKeys.drawings(symbol),
    queryFn: async () => (await apiGet<DrawingsResponse>('/dashboard/chart/drawings', { symbol })).data,
    enabled: symbol !== '',
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
  return data ?? NONE;
}
