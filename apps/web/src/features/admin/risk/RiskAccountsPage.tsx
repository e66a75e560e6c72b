import { useMemo, useState } from 'react';
import { Anchor, Badge, Group, SegmentedControl, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatMoney, type RiskAccountDto } from '@platform/domain';
import { DataTable, type DataTableColumn } from '../../../ui/data-table/index.ts';
import { MARGIN_LEVEL_COLORS } from '../../../app/layouts/topbar/accountFigures.ts';
import { riskLevelState } from './riskLevel.ts';

export const RISK_ACCOUNTS_URL = '/admin/risk/accounts';
/** The risk engine's figures move with every tick; the list follows them this often while it is open. */
export const RISK_REFRESH_MS = 2000;

type Mode = 'real' | 'demo' | 'all';

const money = (r: RiskAccountDto, v: number) => formatMoney(v, r.currency);

/**
 * Accounts at risk (/admin/risk/accounts, admins every wallet, managers their customers'): wallets holding margin,
 * lowest margin level first, with the risk engine's live equity, margin, free margin, margin level and open positions;
 * refreshed every 2 seconds, real wallets unless asked. Each row links to its customer.
 */
export function RiskAccountsPage() {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>('real');
  const filters = useMemo(() => ({ mode }), [mode]);

  const columns = useMemo<DataTableColumn<RiskAccountDto>[]>(
    () => [
      {
        key: 'wallet_id',
        label: t('WALLET'),
        sortable: true,
        render: (r) => (
          <Group gap={6} wrap="nowrap">
            <Text span size="sm">
              #{r.wallet_id}
            </Text>
            <Badge size="xs" color={r.mode === 'demo' ? 'yellow' : 'blue'}>
              {t(r.mode === 'demo' ? 'Demo' : 'Real')}
            </Badge>
          </Group>
        ),
      },
      {
        key: 'name',
        label: t('CUSTOMER'),
        sortable: true,
        render: (r) => (
          <Anchor component={Link} to={`/admin/customers/edit/${r.user_id}`} size="sm" title={r.email}>
            {r.name}
          </Anchor>
        ),
      },
      // The name links to the customer and shows the email on hover: the column waits in the chooser (1366 px).
      { key: 'email', label: t('EMAIL'), sortable: true, hidden: true },
      // The list's order: the margin level and its call first, so a phone shows them without scrolling.
      {
        key: 'margin_level',
        label: t('MARGIN LEVEL'),
        sortable: true,
        render: (r) => {
          const state = riskLevelState(r);
          return r.margin_level === null ? null : (
            <Text span size="sm" fw={600} c={MARGIN_LEVEL_COLORS[state]} data-state={state}>
              {r.margin_level.toFixed(2)}%
            </Text>
          );
        },
      },
      {
        key: 'margin_call',
        label: t('MARGIN CALL'),
        sortable: true,
        truncate: false,
        render: (r) =>
          r.margin_call ? (
            <Badge color="orange" variant="light">
              {t('Called')}
            </Badge>
          ) : null,
      },
      { key: 'equity', label: t('EQUITY'), sortable: true, render: (r) => money(r, r.equity) },
      { key: 'margin', label: t('MARGIN'), sortable: true, render: (r) => money(r, r.margin) },
      { key: 'free_margin', label: t('FREE MARGIN'), sortable: true, render: (r) => money(r, r.free_margin) },
      { key: 'balance', label: t('BALANCE'), sortable: true, render: (r) => money(r, r.balance) },
      { key: 'positions', label: t('POSITIONS'), sortable: true },
    ],
    [t],
  );

  return (
    <DataTable<RiskAccountDto>
      url={RISK_ACCOUNTS_URL}
      columns={columns}
      filters={filters}
      rowKey={(r) => r.wallet_id}
      searchable={false}
      refreshMs={RISK_REFRESH_MS}
      toolbar={
        <Group gap="sm">
          <Text size="xs" c="dimmed">
            {t('Live: refreshed every 2 seconds')}
          </Text>
          <SegmentedControl
            aria-label={t('Wallets')}
            size="xs"
            value={mode}
            onChange={(v) => setMode(v as Mode)}
            data={[
              { value: 'real', label: t('Real') },
              { value: 'demo', label: t('Demo') },
              { value: 'all', label: t('All') },
            ]}
          />
        </Group>
      }
    />
  );
}
