import { Group, Kbd, Modal, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The "?" overlay: the terminal's keys and what they do. Loaded the first time it is opened. */
export function ShortcutsOverlay({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const rows: Array<{ keys: string[]; label: string }> = [
    { keys: ['F9'], label: t('New order for the selected instrument') },
    { keys: ['B'], label: t('Buy the selected instrument') },
    { keys: ['S'], label: t('Sell the selected instrument') },
    { keys: ['↑', '↓'], label: t('Select the previous or next instrument') },
    { keys: ['Esc'], label: t('Close the dialog') },
    { keys: ['?'], label: t('Show these shortcuts') },
  ];
  return (
    <Modal opened onClose={onClose} centered size="md" title={<Text fw={700}>{t('Keyboard shortcuts')}</Text>}>
      <Table verticalSpacing={6} data-testid="shortcuts">
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.label}>
              <Table.Td w={90}>
                <Group gap={4} wrap="nowrap">
                  {r.keys.map((k) => (
                    <Kbd key={k}>{k}</Kbd>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>{r.label}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt="sm">
        {t('The keys do nothing while you type in a field or while a dialog is open.')}
      </Text>
    </Modal>
  );
}
