import { useState, type ReactElement } from 'react';
import { Button, Group, Popover, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface ConfirmPopoverProps {
  /** The question, e.g. "Are you sure to delete this user?" (already translated). */
  message: string;
  onConfirm: () => Promise<unknown> | void;
  /** The control that opens the popover (an ActionIcon or Button). */
  children: ReactElement;
}

/** Row-action confirmation with a single Yes button (back-office spec §8 delete confirmations). */
export function ConfirmPopover({ message, onConfirm, children }: ConfirmPopoverProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      setOpened(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Popover opened={opened} onChange={setOpened} width={260} position="bottom-end" withArrow shadow="md">
      <Popover.Target>
        <span onClick={() => setOpened((o) => !o)} style={{ display: 'inline-flex' }}>
          {children}
        </span>
      </Popover.Target>
      <Popover.Dropdown>
        <Text size="sm" mb="sm">
          {message}
        </Text>
        <Group justify="flex-end" gap="xs">
          <Button size="xs" variant="default" onClick={() => setOpened(false)}>
            {t('Cancel')}
          </Button>
          <Button size="xs" color="red" loading={busy} onClick={() => void confirm()}>
            {t('Yes')}
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
