import { Stack, Switch, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { SalesStatusRequest, type SalesStatusItem } from '@platform/domain';
import { fieldProps } from '../../../ui/form.ts';
import { FormActions, useSaveItem, type ListFormProps } from '../../../ui/list-page/index.ts';

/** Add or edit a sales status (POST /admin/crm-config/sales-statuses, PUT .../{id}). */
export function SalesStatusForm({ item: status, onSaved, onCancel }: ListFormProps<SalesStatusItem>) {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { status: status?.status ?? '', isDefault: status?.is_default ?? false },
    validate: schemaResolver(SalesStatusRequest, { sync: true }),
    validateInputOnBlur: true,
  });
  const submit = useSaveItem(form, {
    url: '/admin/crm-config/sales-statuses',
    id: status?.id,
    savedMessage: t(status ? 'Sales Status updated successfully' : 'Sales Status added successfully'),
    onSaved,
  });
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <TextInput label={t('Status')} withAsterisk {...fieldProps(form, 'status', t)} />
        <Switch label={t('Is Default')} {...fieldProps(form, 'isDefault', t, { type: 'checkbox' })} />
        <FormActions editing={Boolean(status)} submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
