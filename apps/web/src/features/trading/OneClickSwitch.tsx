import { useState } from 'react';
import { Button, Group, Modal, Stack, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { setOneClick, useOneClick } from './oneClick.ts';

/**
 * The terminal's one-click trading switch, off by default and remembered in this browser. Turning it on asks the
 * trader to confirm that SELL and BUY then send market orders at once, with no dialog.
 */
export function OneClickSwitch() {
  const { t } = useTranslation();
  const on = useOneClick();
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Switch
        size="sm"
        label={t('One-click trading')}
        checked={on}
        onChange={(e) => (e.currentTarget.checked ? setAsking(true) : setOneClick(false))}
        styles={{ label: { whiteSpace: 'nowrap' } }}
      />
      <Modal
        opened={asking}
        onClose={() => setAsking(false)}
        centered
        size="md"
        title={<Text fw={700}>{t('Turn on one-click trading?')}</Text>}
      >
        <Stack gap="md">
          <Text size="sm">
            {t(
              'With one-click trading on, the SELL and BUY buttons of the chart and of the instrument list send a market order at once, with no dialog to check it, for the amount you last used on that instrument.',
            )}
          </Text>
          <Text size="sm" c="dimmed">
            {t('The first order on an instrument still opens the dialog, to choose its amount.')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(false)}>
              {t('Cancel')}
            </Button>
            <Button
              color="orange"
              onClick={() => {
                setOneClick(true);
                setAsking(false);
              }}
            >
              {t('I understand, turn it on')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
