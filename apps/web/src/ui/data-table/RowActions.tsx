import { ActionIcon, Button, Group, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ConfirmPopover } from './ConfirmPopover.tsx';

/** The ACTIONS cell of an editable list: edit, and delete behind the spec's confirmation text. */
export function EditDeleteActions({
  onEdit,
  deleteMessage,
  onDelete,
}: {
  onEdit: () => void;
  deleteMessage: string;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label={t('Edit')}>
        <ActionIcon variant="subtle" aria-label={t('Edit')} onClick={onEdit}>
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      <ConfirmPopover message={deleteMessage} onConfirm={onDelete}>
        <ActionIcon variant="subtle" color="red" aria-label={t('Delete')}>
          <IconTrash size={18} />
        </ActionIcon>
      </ConfirmPopover>
    </Group>
  );
}

/** The "Add New" button of a list's toolbar. */
export function AddNewButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button leftSection={<IconPlus size={16} />} onClick={onClick}>
      {t('Add New')}
    </Button>
  );
}
