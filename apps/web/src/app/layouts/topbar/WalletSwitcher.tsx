import { Badge, Button, Menu, Text } from '@mantine/core';
import { IconCheck, IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { dec, formatMoney, type BalanceDto } from '@platform/domain';
import { useSwitchWallet } from '../../../api/hooks.ts';

export interface WalletSwitcherProps {
  balances: BalanceDto[];
  active: BalanceDto;
  fullWidth?: boolean;
}

/** Demo/real account switcher: picks another wallet, the server makes it active, the page reloads. */
export function WalletSwitcher({ balances, active, fullWidth = false }: WalletSwitcherProps) {
  const { t } = useTranslation();
  const switchWallet = useSwitchWallet();
  const modeLabel = (w: BalanceDto) => (w.mode === 'demo' ? t('Demo') : t('Real'));
  return (
    <Menu position="bottom-end" withinPortal shadow="md" width={280}>
      <Menu.Target>
        <Button
          variant="default"
          size="compact-sm"
          fullWidth={fullWidth}
          loading={switchWallet.isPending}
          rightSection={<IconChevronDown size={14} />}
          leftSection={
            <Badge size="xs" variant="filled" color={active.mode === 'demo' ? 'yellow' : 'teal'}>
              {modeLabel(active)}
            </Badge>
          }
        >
          {active.currency}
        </Button>
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
