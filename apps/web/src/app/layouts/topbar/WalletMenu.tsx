import { Badge, Menu, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { dec, formatMoney, type BalanceDto } from '@platform/domain';
import { useSwitchWallet } from '../../../api/hooks.ts';
import { walletTarget } from './walletTarget.tsx';

export interface WalletMenuProps {
  balances: BalanceDto[];
  active: BalanceDto;
  fullWidth?: boolean;
  defaultOpened?: boolean;
}

/** Demo/real account switcher: picks another wallet, the server makes it active, the page reloads. */
export function WalletMenu({ balances, active, fullWidth = false, defaultOpened = false }: WalletMenuProps) {
  const { t } = useTranslation();
  const switchWallet = useSwitchWallet();
  const modeLabel = (w: BalanceDto) => (w.mode === 'demo' ? t('Demo') : t('Real'));
  return (
    <Menu position="bottom-end" withinPortal shadow="md" width={280} defaultOpened={defaultOpened}>
      <Menu.Target>
        {walletTarget(active, modeLabel(active), { fullWidth, loading: switchWallet.isPending })}
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('Switch account')}</Menu.Label>
        {balances.map((w) => (
          <Menu.Item
            key={w.id}
            disabled={w.id === active.id}
            onClick={() => switchWallet.mutate(w.id)}
            leftSection={
              <Badge size="xs" variant="light" color={w.mode === 'demo' ? 'yellow' : 'teal'} w={48}>
                {modeLabel(w)}
              </Badge>
            }
            rightSection={w.id === active.id ? <IconCheck size={14} /> : null}
          >
            <Text size="sm">
              {w.currency} · {formatMoney(dec(w.balance).minus(w.margin), w.currency)}
            </Text>
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
