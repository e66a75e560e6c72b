import { useState } from 'react';
import { resolveStopout } from '@platform/domain';
import { useCurrentUser } from '../../api/hooks.ts';
import { useRealtimeEvent } from '../../api/realtime.ts';
import { TopBarStats, type TopBarStatsProps } from '../../app/layouts/topbar/TopBarStats.tsx';
import { useLivePositions } from './useLivePositions.ts';

/**
 * The `marginCall` event: the server called a wallet's margin (its level fell to the plan's margin-call level) or
 * re-armed the call once the level recovered. The client's toast comes with the call's notification (`user:{id}`).
 */
export interface MarginCallEvent {
  balanceId: number;
  marginLevel?: number;
  called: boolean;
}

type Props = Omit<TopBarStatsProps, 'profitLoss' | 'marginCallLevel' | 'stopoutLevel' | 'marginCalled'>;

/**
 * The top bar's wallet figures with the live P/L of the open positions, which moves P/L, equity, free margin
 * and margin level. Kept apart from the top bar so each price batch re-renders only these figures. The margin level
 * turns to a warning colour at the plan's margin-call level (or while the server's call is on) and to danger at the
 * stop-out level.
 */
export function LiveTopBarStats(props: Props) {
  const { totalProfitLoss } = useLivePositions();
  const { data: current } = useCurrentUser();
  const plan = current?.user.pricingTable ?? null;
  const walletId = current?.activeBalance?.id ?? null;
  // The last event of the active wallet; before one comes, the call as the wallet was read (a reload in margin call).
  const [call, setCall] = useState<MarginCallEvent | null>(null);
  useRealtimeEvent<MarginCallEvent>('marginCall', (e) => {
    if (e && e.balanceId === walletId) setCall(e);
  });
  return (
    <TopBarStats
      {...props}
      profitLoss={totalProfitLoss.toString()}
      marginCallLevel={plan?.margin_call_level ?? null}
      stopoutLevel={resolveStopout(plan?.forex_stopout ?? null)}
      marginCalled={call?.balanceId === walletId ? call.called : current?.activeBalance?.margin_call === true}
    />
  );
}
