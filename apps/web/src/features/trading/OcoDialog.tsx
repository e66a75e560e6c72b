import { useState } from 'react';
import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dec, type PendingOrderDto } from '@platform/domain';
import { instrumentLabel, pendingTypeLabel, rateText } from './pendingFormat.ts';
import { usePendingActions } from './usePendingActions.ts';

export interface OcoDialogProps {
  order: PendingOrderDto;
  /** The wallet's pending orders; those not linked yet are offered as the partner. */
  orders: readonly PendingOrderDto[];
  digitsOf: (instrument: string) => number | undefined;
  onClose: () => void;
}

/** Links two pending orders of the wallet: when one fills or is cancelled, the server cancels the other. */
export function OcoDialog({ order, orders, digitsOf, onClose }: OcoDialogProps) {
  const { t } = useTranslation();
  const { link } = usePendingActions();
  const [partner, setPartner] = useState<string | null>(null);
  const describe = (o: PendingOrderDto) =>
    `#${o.id} ${t(pendingTypeLabel(o))} ${instrumentLabel(o.instrument)} ${dec(o.amount).toString()} @ ${rateText(
      o.price,
      digitsOf(o.instrument),
    )}`;
  const candidates = orders.filter((o) => o.id !== order.id && o.status === 'pending' && o.oco_id === null);
  return (
    <Modal opened onClose={onClose} centered size="md" title={<Text fw={700}>{t('Link OCO')}</Text>}>
      <Stack gap="md">
        <Text size="sm">{describe(order)}</Text>
        <Select
          label={t('One cancels the other with')}
          placeholder={t('Choose a pending order')}
          data={candidates.map((o) => ({ value: String(o.id), label: describe(o) }))}
          value={partner}
          onChange={setPartner}
          nothingFoundMessage={t('No other pending order to link')}
          comboboxProps={{ withinPortal: false }}
        />
        <Text size="xs" c="dimmed">
          {t('When one of the two fills or is cancelled, the other is cancelled at once.')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button
            disabled={partner === null}
            loading={link.isPending}
            onClick={() => link.mutate({ ids: [order.id, Number(partner)] }, { onSuccess: onClose })}
          >
            {t('Link')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
