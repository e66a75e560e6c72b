import { Box, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dec, formatOrderTime, type PendingOrderDto } from '@platform/domain';
import { PendingActions, type PendingOrdersTableProps } from './PendingActions.tsx';
import { ExpiryCell, PendingStatusCell } from './PendingCells.tsx';
import { instrumentLabel, pendingTypeLabel, rateText } from './pendingFormat.ts';

const tabular = { fontVariantNumeric: 'tabular-nums' } as const;

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} style={tabular}>
        {value}
      </Text>
    </div>
  );
}

/** Pending orders on a phone: one card each with its prices, expiry, status and the actions within reach. */
export function PendingOrderCards({ rows, digitsOf, emptyText, ...actions }: PendingOrdersTableProps) {
  const { t } = useTranslation();
  if (rows.length === 0)
    return (
      <Text ta="center" c="dimmed" py="md">
        {emptyText}
      </Text>
    );
  const canLink = rows.filter((r) => r.oco_id === null).length > 1;
  return (
    <Stack gap="xs" data-testid="pending-cards">
      {rows.map((o: PendingOrderDto) => {
        const rate = (v: string | null) => rateText(v, digitsOf(o.instrument));
        return (
          <Paper key={o.id} withBorder radius="md" p="sm" data-testid={`pending-${o.id}`}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <div>
                <Group gap={6} wrap="nowrap">
                  <Text fw={700}>{instrumentLabel(o.instrument)}</Text>
                  <Text size="sm" fw={700} c={o.type === 'buy' ? 'teal' : 'red'} style={{ whiteSpace: 'nowrap' }}>
                    {t(pendingTypeLabel(o))}
                  </Text>
                </Group>
                <Text size="xs" c="dimmed">
                  {formatOrderTime(o.created_at)}
                </Text>
              </div>
              <PendingStatusCell order={o} rows={rows} />
            </Group>
            <SimpleGrid cols={3} spacing="xs" mt="xs">
              <Figure label={t('Amount')} value={dec(o.amount).toString()} />
              <Figure label={t('Price')} value={rate(o.price)} />
              <Figure label={t('Limit Price')} value={rate(o.limit_price)} />
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
          </Paper>
        );
      })}
    </Stack>
  );
}
