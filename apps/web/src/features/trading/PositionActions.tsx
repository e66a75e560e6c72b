import { ActionIcon, Button, Group, Tooltip } from '@mantine/core';
import { IconCut, IconShieldDown, IconTargetArrow } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { OrderDto } from '@platform/domain';
import type { ProtectionKind } from './ProtectionDialog.tsx';

/**
 * Set Stop/Loss (with the trailing stop), Set Take/Profit, Partial Close and Close of an open position: compact in the
 * table, larger on a phone's card.
 */
export function PositionActions({
  order,
  closing,
  large = false,
  onProtect,
  onPartialClose,
  onClose,
}: {
  order: OrderDto;
  closing: boolean;
  large?: boolean;
  onProtect: (order: OrderDto, kind: ProtectionKind) => void;
  onPartialClose?: (order: OrderDto) => void;
  onClose: (order: OrderDto) => void;
}) {
  const { t } = useTranslation();
  const icon = large ? 18 : 14;
  return (
    <Group gap={large ? 6 : 4} wrap="nowrap">
      <Tooltip label={t('Set Stop/Loss')}>
        <ActionIcon
          variant="light"
          color="red"
          size={large ? 'lg' : 'sm'}
          aria-label={t('Set Stop/Loss')}
          onClick={() => onProtect(order, 'loss')}
        >
          <IconShieldDown size={icon} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('Set Take/Profit')}>
        <ActionIcon
          variant="light"
          color="teal"
          size={large ? 'lg' : 'sm'}
          aria-label={t('Set Take/Profit')}
          onClick={() => onProtect(order, 'profit')}
        >
          <IconTargetArrow size={icon} />
        </ActionIcon>
      </Tooltip>
      {onPartialClose && (
        <Tooltip label={t('Partial Close')}>
          <ActionIcon
            variant="light"
            color="gray"
            size={large ? 'lg' : 'sm'}
            aria-label={t('Partial Close')}
            onClick={() => onPartialClose(order)}
          >
            <IconCut size={icon} />
          </ActionIcon>
        </Tooltip>
      )}
      <Button size={large ? 'xs' : 'compact-xs'} color="gray" loading={closing} onClick={() => onClose(order)}>
        {t('Close')}
      </Button>
    </Group>
  );
}
