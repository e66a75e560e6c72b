import { useState, type ReactElement } from 'react';
import { Button, Group, Popover, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface ConfirmPopoverProps {
  /** The question, e.g. "Are you sure to delete this user?" (already translated). */
  message: string;
  /** Called with the typed reason when `reasonLabel` asks for one ('' otherwise). */
  onConfirm: (reason: string) => Promise<unknown> | void;
  /** Also ask for an optional reason (a decline's "Decline Reason"). */
  reasonLabel?: string;
  /** The reason must be given: Yes stays disabled until it is (an approval that overrides a rule). */
  reasonRequired?: boolean;
  /** The control that opens the popover (an ActionIcon or Button). */
  children: ReactElement;
}

/** Row-action confirmation with a single Yes button (back-office spec §8 delete confirmations). */
export function ConfirmPopover({ message, onConfirm, reasonLabel, reasonRequired, children }: ConfirmPopoverProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState('');

  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm(reason.trim());
      setOpened(false);
      setReason('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      width={reasonLabel ? 300 : 260}
      position="bottom-end"
      withArrow
      shadow="md"
    >
      <Popover.Target>
        {/* biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: the wrapped child is the focusable button; the span only receives its bubbled click */}
        <span onClick={() => setOpened((o) => !o)} style={{ display: 'inline-flex' }}>
          {children}
        </span>
      </Popover.Target>
      <Popover.Dropdown>
        <Text size="sm" mb="sm">
          {message}
        </Text>
        {reasonLabel && (
          <Textarea
            label={reasonLabel}
            placeholder={reasonRequired ? t('Required') : t('Optional')}
            required={reasonRequired}
            rows={3}
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            mb="sm"
          />
        )}
        <Group justify="flex-end" gap="xs">
          <Button size="xs" variant="default" onClick={() => setOpened(false)}>
            {t('Cancel')}
          </Button>
          <Button
            size="xs"
            color="red"
            loading={busy}
            disabled={reasonRequired && reason.trim() === ''}
            onClick={() => void confirm()}
          >
            {t('Yes')}
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
