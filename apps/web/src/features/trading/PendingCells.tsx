import { Badge, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PendingOrderDto } from '@platform/domain';
import { expiryText, ocoPartner, STATUS_COLORS, STATUS_LABELS } from './pendingFormat.ts';

const nowrap = { whiteSpace: 'nowrap' } as const;

/** Status with the OCO partner it is linked to. */
export function PendingStatusCell({ order, rows }: { order: PendingOrderDto; rows: readonly PendingOrderDto[] }) {
  const { t } = useTranslation();
  const partner = ocoPartner(order, rows);
  return (
    <Stack gap={4} align="flex-start">
      <Badge color={STATUS_COLORS[order.status]} variant="light" miw="max-content">
        {t(STATUS_LABELS[order.status])}
      </Badge>
      {order.oco_id !== null && (
        <Tooltip label={t('One cancels the other')}>
          <Badge color="grape" variant="outline" miw="max-content" data-testid={`oco-${order.id}`}>
            {partner ? t('OCO #{{id}}', { id: partner.id }) : t('OCO')}
          </Badge>
        </Tooltip>
      )}
    </Stack>
  );
}

/** Expiry as a label with its time under it. */
export function ExpiryCell({ order }: { order: PendingOrderDto }) {
  const { t } = useTranslation();
  const e = expiryText(order);
  return (
    <Text span size="sm" title={t(e.title)} style={{ display: 'inline-block', lineHeight: 1.25, ...nowrap }}>
      {t(e.label)}
      {e.at && (
        <Text span size="xs" c="dimmed" display="block">
          {e.at}
        </Text>
      )}
    </Text>
  );
}
