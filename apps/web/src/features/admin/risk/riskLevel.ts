import { DEFAULT_STOPOUT_LEVEL, type RiskAccountDto } from '@platform/domain';
import { marginLevelState, type MarginLevelState } from '../../../app/layouts/topbar/accountFigures.ts';

/**
 * The margin level at which the risk desk's list warns: equity no longer covers the margin held. The list does not
 * carry each wallet's plan, so its bands are the house's: warning at or below 100 % (or while the wallet's margin
 * call is on), danger at or below the default stop-out level (50 %) or without equity.
 */
export const RISK_WARNING_LEVEL = 100;

export function riskLevelState(r: Pick<RiskAccountDto, 'margin_level' | 'margin_call' | 'equity'>): MarginLevelState {
  if (r.margin_level === null) return r.margin_call ? 'warning' : 'ok';
  if (r.equity <= 0) return 'danger';
  return marginLevelState(r.margin_level.toFixed(2), {
    marginCallLevel: RISK_WARNING_LEVEL,
    stopoutLevel: DEFAULT_STOPOUT_LEVEL,
    called: r.margin_call,
  });
}
