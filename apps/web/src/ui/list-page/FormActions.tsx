import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The buttons under an add/edit form: Cancel (when the form can be left) and Submit, or Update on an edit. */
export function FormActions({
  editing,
  submitting,
  onCancel,
}: {
  editing: boolean;
  submitting: boolean;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" gap="sm">
      {onCancel && (
        <Button variant="default" onClick={onCancel}>
          {t('Cancel')}
        </Button>
      )}
      <Button type="submit" loading={submitting} disabled={submitting}>
        {editing ? t('Update') : t('Submit')}
      </Button>
    </Group>
  );
}
