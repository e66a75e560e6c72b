import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconLink, IconPencil, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { PendingOrderDto } from '@platform/domain';
import { ConfirmPopover } from '../../ui/data-table/ConfirmPopover.tsx';

export interface PendingRowActions {
  onModify: (order: PendingOrderDto) => void;
  /** Resolves once the cancel is answered (the confirmation stays open meanwhile). */
  onCancel: (order: PendingOrderDto) => Promise<unknown>;
  onLink: (order: PendingOrderDto) => void;
}

/** What the table and the phone cards of pending orders take. */
export interface PendingOrdersTableProps extends PendingRowActions {
  rows: readonly PendingOrderDto[];
  digitsOf: (instrument: string) => number | undefined;
  emptyText: string;
}

/** Modify, Link OCO and Cancel (with a confirmation) of a waiting order: compact in the table, larger on a card. */
export function PendingActions({
  order,
  large = false,
  canLink,
  onModify,
  onCancel,
  onLink,
}: PendingRowActions & { order: PendingOrderDto; large?: boolean; canLink: boolean }) {
  const { t } = useTranslation();
  const size = large ? 'lg' : 'md';
  const icon = large ? 18 : 16;
  return (
    <Group gap={large ? 6 : 4} wrap="nowrap">
      <Tooltip label={t('Modify')}>
        <ActionIcon variant="light" size={size} aria-label={t('Modify')} onClick={() => onModify(order)}>
          <IconPencil size={icon} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={order.oco_id === null ? t('Link OCO') : t('Already linked')}>
        <ActionIcon
          variant="light"
          color="grape"
          size={size}
          aria-label={t('Link OCO')}
          disabled={!canLink || order.oco_id !== null}
          onClick={() => onLink(order)}
        >
          <IconLink size={icon} />
        </ActionIcon>
      </Tooltip>
      <ConfirmPopover message={t('Cancel this pending order?')} onConfirm={() => onCancel(order)}>
        <ActionIcon variant="light" color="red" size={size} aria-label={t('Cancel order')} title={t('Cancel order')}>
          <IconX size={icon} />
        </ActionIcon>
      </ConfirmPopover>
    </Group>
  );
}
