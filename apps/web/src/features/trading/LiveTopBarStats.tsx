import { TopBarStats, type TopBarStatsProps } from '../../app/layouts/topbar/TopBarStats.tsx';
import { useLivePositions } from './useLivePositions.ts';

/**
 * The top bar's wallet figures with the live P/L of the open positions, which moves P/L, equity, free margin
 * and margin level. Kept apart from the top bar so each price batch re-renders only these figures.
 */
export function LiveTopBarStats(props: Omit<TopBarStatsProps, 'profitLoss'>) {
  const { totalProfitLoss } = useLivePositions();
  return <TopBarStats {...props} profitLoss={totalProfitLoss.toString()} />;
}
