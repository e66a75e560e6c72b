import { useCallback, useMemo, useState } from 'react';
import { Button, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SalesStatusRequest, type MessageResponse, type SalesStatusItem } from '@platform/domain';
import { ApiError, apiDelete, apiPost, apiPut, errorMessage } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import { AddNewButton, DataTable, EditDeleteActions, type DataTableColumn } from '../../../ui/data-table/index.ts';
import { SALES_STATUSES_URL } from './useSalesStatuses.ts';

function SalesStatusForm({
  status,
  onSaved,
  onCancel,
}: {
  status?: SalesStatusItem;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { status: status?.status ?? '', isDefault: status?.is_default ?? false },
    validate: schemaResolver(SalesStatusRequest, { sync: true }),
    validateInputOnBlur: true,
  });
  const submit = async (v: { status: string; isDefault: boolean }) => {
    try {
      if (status) await apiPut<MessageResponse>(`/admin/crm-config/sales-statuses/${status.id}`, v);
      else await apiPost<MessageResponse>('/admin/crm-config/sales-statuses', v);
      toastSuccess(t(status ? 'Sales Status updated successfully' : 'Sales Status added successfully'));
      onSaved();
    } catch (err) {
      if (err instanceof ApiError && err.errors) form.setErrors(err.errors);
      toastError(errorMessage(err, t('Something went wrong')));
    }
  };
  const error = form.errors.status;
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('Status')}
          withAsterisk
          {...form.getInputProps('status')}
          error={typeof error === 'string' ? t(error) : error}
        />
        <Switch label={t('Is Default')} {...form.getInputProps('isDefault', { type: 'checkbox' })} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={form.submitting} disabled={form.submitting}>
            {status ? t('Update') : t('Submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** CRM configuration: Sales Statuses (/admin/crm-config/sales-statuses), back-office §2. */
export function SalesStatusesPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [editing, setEditing] = useState<SalesStatusItem | 'new' | null>(null);
  const refresh = useCallback(() => client.invalidateQueries({ queryKey: ['list'] }), [client]);

  const remove = useCallback(
    async (s: SalesStatusItem) => {
      try {
        await apiDelete(`/admin/crm-config/sales-statuses/${s.id}`);
        toastSuccess(t('Sales Status deleted successfully'));
        await refresh();
      } catch (err) {
        // A status leads still have, or the default: the server says what to do first.
        toastError(err instanceof ApiError && err.status === 409 ? err.message : t('Something went wrong'));
      }
    },
    [t, refresh],
  );

  const columns = useMemo<DataTableColumn<SalesStatusItem>[]>(
    () => [
      { key: 'status', label: t('STATUS'), sortable: true },
      { key: 'is_default', label: t('IS DEFAULT'), sortable: true, render: (s) => (s.is_default ? t('Yes') : t('No')) },
      {
        key: 'actions',
        label: t('ACTIONS'),
        render: (s) => (
          <EditDeleteActions
            onEdit={() => setEditing(s)}
            deleteMessage={t('Are you sure to delete this sale status?')}
            onDelete={() => remove(s)}
          />
        ),
      },
    ],
    [t, remove],
  );

  return (
    <>
      <DataTable<SalesStatusItem>
        url={SALES_STATUSES_URL}
        columns={columns}
        toolbar={<AddNewButton onClick={() => setEditing('new')} />}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        size="lg"
        title={editing === 'new' ? t('Add Sales Status') : t('Edit Sales Status')}
      >
        {editing !== null && (
          <SalesStatusForm
            status={editing === 'new' ? undefined : editing}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              void refresh();
            }}
          />
        )}
      </Modal>
    </>
  );
}
