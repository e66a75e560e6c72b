import { Group, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@platform/domain';
import { accountFigures, formatMarginLevel, MARGIN_LEVEL_COLORS, marginLevelState } from './accountFigures.ts';

export interface TopBarStatsProps {
  balance: string;
  margin: string;
  currency: string;
  /** Live P/L of the open positions. */
  profitLoss?: string;
  /** 'row' in the header, 'grid' in the mobile drawer. */
  layout?: 'row' | 'grid';
  /** The plan's margin-call level in percent (null: no margin call) and its stop-out level. */
  marginCallLevel?: number | null;
  stopoutLevel?: number;
  /** The server called this wallet's margin and has not re-armed the call yet. */
  marginCalled?: boolean;
}

function Stat({
  label,
  value,
  color,
  title,
  state,
}: {
  label: string;
  value: string;
  color?: string;
  title?: string;
  /** data-state of the figure (the margin level's warning state). */
  state?: string;
}) {
  return (
    <div title={title} data-state={state}>
      <Text size="xs" c="dimmed" lh={1.2} style={{ whiteSpace: 'nowrap' }}>
        {label}
      </Text>
      <Text size="sm" fw={600} c={color} lh={1.4} style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
    </div>
  );
}

/** Balance, P/L (3 decimals), equity (3 decimals), used and free margin, margin level of the active wallet. */
export function TopBarStats({
  balance,
  margin,
  currency,
  profitLoss = '0',
  layout = 'row',
  marginCallLevel = null,
  stopoutLevel,
  marginCalled = false,
}: TopBarStatsProps) {
  const { t } = useTranslation();
  const f = accountFigures(balance, margin, profitLoss);
  const state = marginLevelState(f.marginLevel, { marginCallLevel, stopoutLevel, called: marginCalled });
  const levelTitle =
    state === 'danger'
      ? t('At or below the stop-out level of {{level}}%: positions are being closed', { level: stopoutLevel })
      : state === 'warning'
        ? t('Margin call: deposit funds or reduce your positions before the stop-out at {{level}}%', {
            level: stopoutLevel,
          })
        : undefined;
  const plColor = Number(f.profitLoss) > 0 ? 'teal' : Number(f.profitLoss) < 0 ? 'red' : undefined;
  const stats = [
    <Stat key="balance" label={t('Balance')} value={formatMoney(f.balance, currency)} />,
    <Stat key="pl" label={t('Profit/Loss')} value={formatMoney(f.profitLoss, currency, 3)} color={plColor} />,
    <Stat key="equity" label={t('Equity')} value={formatMoney(f.equity, currency, 3)} />,
    <Stat key="used" label={t('Used Margin')} value={formatMoney(f.usedMargin, currency)} />,
    <Stat key="free" label={t('Free Margin')} value={formatMoney(f.freeMargin, currency)} />,
    <Stat
      key="level"
      label={t('Margin Level')}
      value={formatMarginLevel(f.marginLevel)}
      color={MARGIN_LEVEL_COLORS[state]}
      title={levelTitle}
      state={state}
    />,
  ];
  if (layout === 'grid')
    return (
      <SimpleGrid cols={2} spacing="sm">
        {stats}
      </SimpleGrid>
    );
  return (
    <Group gap="lg" wrap="nowrap" data-testid="top-bar-stats">
      {stats}
    </Group>
  );
}
