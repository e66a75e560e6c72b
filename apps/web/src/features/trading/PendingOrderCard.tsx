import { Box, Group, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dec, formatOrderTime, type PendingOrderDto } from '@platform/domain';
import { CardFigure } from '../../ui/responsive-list/index.ts';
import { PendingActions, type PendingRowActions } from './PendingActions.tsx';
import { ExpiryCell, PendingStatusCell } from './PendingCells.tsx';
import { instrumentLabel, pendingTypeLabel, rateText } from './pendingFormat.ts';
import { TradeCardHeader } from './TradeCardHeader.tsx';

/** A pending order on a phone: its prices, expiry, status and the actions within reach. */
export function PendingOrderCard({
  order: o,
  rows,
  digits,
  canLink,
  ...actions
}: PendingRowActions & {
  order: PendingOrderDto;
  rows: readonly PendingOrderDto[];
  digits: number | undefined;
  canLink: boolean;
}) {
  const { t } = useTranslation();
  const rate = (v: string | null) => rateText(v, digits);
  return (
    <>
      <TradeCardHeader
        instrument={instrumentLabel(o.instrument)}
        side={o.type}
        sideLabel={t(pendingTypeLabel(o))}
        time={formatOrderTime(o.created_at)}
        aside={<PendingStatusCell order={o} rows={rows} />}
      />
      <SimpleGrid cols={3} spacing="xs" mt="xs">
        <CardFigure label={t('Amount')} value={dec(o.amount).toString()} />
        <CardFigure label={t('Price')} value={rate(o.price)} />
        <CardFigure label={t('Limit Price')} value={rate(o.limit_price)} />
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt={6}>
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
