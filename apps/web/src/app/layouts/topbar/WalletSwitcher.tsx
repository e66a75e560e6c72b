import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import type { BalanceDto } from '@platform/domain';
import { MenuOnUse } from '../../../ui/shell/MenuOnUse.tsx';
import { walletTarget } from './walletTarget.tsx';

const loadMenu = () => import('./WalletMenu.tsx');
const WalletMenu = lazy(() => loadMenu().then((m) => ({ default: m.WalletMenu })));

export interface WalletSwitcherProps {
  balances: BalanceDto[];
  active: BalanceDto;
  fullWidth?: boolean;
}

/** Demo/real account switcher; its menu loads when the button is first reached for (see MenuOnUse). */
export function WalletSwitcher({ balances, active, fullWidth = false }: WalletSwitcherProps) {
  const { t } = useTranslation();
  const mode = active.mode === 'demo' ? t('Demo') : t('Real');
  return (
    <MenuOnUse
      load={loadMenu}
      target={(on) => walletTarget(active, mode, { fullWidth }, on)}
      menu={() => <WalletMenu balances={balances} active={active} fullWidth={fullWidth} defaultOpened />}
    />
  );
}
