import { Box, Group, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatOrderTime, type PendingOrderDto } from '@platform/domain';
import { CardFigure } from '../../ui/responsive-list/index.ts';
import { PendingActions, type PendingRowActions } from './PendingActions.tsx';
import { ExpiryCell, PendingStatusCell } from './PendingCells.tsx';
import { instrumentLabel, pendingTypeLabel, rateText } from './pendingFormat.ts';
import { amountWithUnit, useLivePrice } from './TableCells.tsx';
import type { AmountText } from './terminalTables.ts';
import { TradeCardHeader } from './TradeCardHeader.tsx';

/** A pending order on a phone: its ticket, prices (the live one it waits for too), expiry, status and the actions. */
export function PendingOrderCard({
  order: o,
  rows,
  digits,
  amount,
  canLink,
  ...actions
}: PendingRowActions & {
  order: PendingOrderDto;
  rows: readonly PendingOrderDto[];
  digits: number | undefined;
  amount: AmountText;
  canLink: boolean;
}) {
  const { t } = useTranslation();
  const rate = (v: string | null) => rateText(v, digits);
  const current = useLivePrice(o.instrument, o.type, 'open', digits);
  return (
    <>
      <TradeCardHeader
        instrument={instrumentLabel(o.instrument)}
        side={o.type}
        sideLabel={t(pendingTypeLabel(o))}
        time={formatOrderTime(o.created_at)}
        ticket={{ id: o.id, testId: `ticket-${o.id}` }}
        aside={<PendingStatusCell order={o} rows={rows} />}
      />
      <SimpleGrid cols={3} spacing="xs" mt="xs">
        <CardFigure label={t('Amount')} value={amountWithUnit(amount, t('lot'))} testId={`amount-${o.id}`} />
        <CardFigure label={t('Order price')} value={rate(o.price)} />
        <CardFigure label={t('Current Price')} value={current} testId={`current-${o.id}`} />
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt={6}>
        {o.limit_price !== null && `${t('Limit Price')} ${rate(o.limit_price)} · `}
        {t('SL')} {rate(o.loss)} · {t('TP')} {rate(o.profit)}
      </Text>
      <Group justify="space-between" mt="xs" gap={6} align="center">
        <ExpiryCell order={o} />
        {o.status === 'pending' && (
          <Box ml="auto">
            <PendingActions order={o} large canLink={canLink} {...actions} />
          </Box>
        )}
      </Group>
    </>
  );
}
