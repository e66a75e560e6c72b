import { useCallback, useMemo, useState } from 'react';
import { Anchor, Image, Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, type ExternalPaymentDto } from '@platform/domain';
import { apiDelete } from '../../../../api/client.ts';
import { toastError, toastSuccess } from '../../../../ui/toast.ts';
import {
  AddNewButton,
  DataTable,
  EditDeleteActions,
  useRefreshList,
  type DataTableColumn,
} from '../../../../ui/data-table/index.ts';
import { ExternalPaymentForm } from './ExternalPaymentForm.tsx';

export const EXTERNAL_PAYMENTS_URL = '/admin/externalPayments/api';

type Editing = { mode: 'add' } | { mode: 'edit'; payment: ExternalPaymentDto } | null;

/** External Payments (/admin/externalPayments): payment links offered on the deposit page, with add, edit and delete. */
export function ExternalPaymentsPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Editing>(null);
  const refresh = useRefreshList(EXTERNAL_PAYMENTS_URL);

  const remove = useCallback(
    async (payment: ExternalPaymentDto) => {
      try {
        await apiDelete(`/admin/externalPayments/${payment.id}`);
      } catch {
        toastError(t(GENERIC_ERROR));
        return;
      }
      toastSuccess(t('Payment deleted successfully'));
      await refresh();
    },
    [t, refresh],
  );

  const columns = useMemo<DataTableColumn<ExternalPaymentDto>[]>(
    () => [
      { key: 'id', label: t('ID'), sortable: true, width: 70 },
      {
        key: 'logo',
        label: t('LOGO'),
        render: (p) => (p.logo ? <Image src={p.logo} alt={p.name} h={32} w="auto" maw={96} fit="contain" /> : null),
      },
      { key: 'name', label: t('NAME'), sortable: true },
      {
        key: 'link',
        label: t('LINK'),
        sortable: true,
        render: (p) => (
          <Anchor href={p.link} target="_blank" rel="noopener noreferrer" size="sm" style={{ wordBreak: 'break-all' }}>
            {p.link}
          </Anchor>
        ),
      },
      { key: 'custom_label', label: t('CUSTOM LABEL'), sortable: true },
      { key: 'custom_value', label: t('CUSTOM VALUE'), sortable: true },
      {
        key: 'actions',
        label: t('ACTIONS'),
        render: (p) => (
          <EditDeleteActions
            onEdit={() => setEditing({ mode: 'edit', payment: p })}
            deleteMessage={t('Are you sure to delete this payment?')}
            onDelete={() => remove(p)}
          />
        ),
      },
    ],
    [t, remove],
  );

  const close = () => setEditing(null);

  return (
    <>
      <DataTable<ExternalPaymentDto>
        url={EXTERNAL_PAYMENTS_URL}
        columns={columns}
        toolbar={<AddNewButton onClick={() => setEditing({ mode: 'add' })} />}
        exportable
      />
      <Modal
        opened={editing !== null}
        onClose={close}
        size="lg"
        title={editing?.mode === 'edit' ? t('Edit External Payment') : t('Add External Payment')}
      >
        {editing && (
          <ExternalPaymentForm
            key={editing.mode === 'edit' ? editing.payment.id : 'new'}
            payment={editing.mode === 'edit' ? editing.payment : undefined}
            onCancel={close}
            onSaved={() => {
              close();
              void refresh();
            }}
          />
        )}
      </Modal>
    </>
  );
}
