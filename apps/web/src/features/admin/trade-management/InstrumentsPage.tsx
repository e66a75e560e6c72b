import { useCallback, useMemo, useState } from 'react';
import { Modal } from '@mantine/core';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CATEGORIES, GENERIC_ERROR, type AdminInstrumentDto, type Category } from '@platform/domain';
import { ApiError, apiDelete } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import {
  AddNewButton,
  DataTable,
  EditDeleteActions,
  StatusChip,
  useRefreshList,
  type DataTableColumn,
} from '../../../ui/data-table/index.ts';
import { PageNotFound } from '../StatusViews.tsx';
import { InstrumentForm } from './InstrumentForm.tsx';

export const instrumentsUrl = (type: Category) => `/admin/instruments/api/${type}`;

type Editing = { mode: 'add' } | { mode: 'edit'; instrument: AdminInstrumentDto } | null;

const isCategory = (v: string | undefined): v is Category => (CATEGORIES as readonly string[]).includes(v ?? '');

/** Instruments (/admin/instruments/{type}): the category's instruments with add, edit and delete (back-office spec §2). */
export function InstrumentsPage() {
  const { type } = useParams();
  if (!isCategory(type)) return <PageNotFound />;
  // Keyed by the type so switching category starts a fresh table (search, page, modal).
  return <InstrumentsList key={type} type={type} />;
}

function InstrumentsList({ type }: { type: Category }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Editing>(null);
  const url = instrumentsUrl(type);
  const refresh = useRefreshList(url);

  const remove = useCallback(
    async (instrument: AdminInstrumentDto) => {
      try {
        await apiDelete(`/admin/instruments/${instrument.id}`);
      } catch (err) {
        // A refusal the admin can act on (open positions, trade history) says why; anything else is generic (spec §8).
        toastError(err instanceof ApiError && err.status === 409 ? err.message : t(GENERIC_ERROR));
        return;
      }
      toastSuccess(t('Instrument deleted successfully'));
      await refresh();
    },
    [t, refresh],
  );

  const columns = useMemo<DataTableColumn<AdminInstrumentDto>[]>(
    () => [
      { key: 'id', label: t('ID'), sortable: true, width: 70 },
      { key: 'name', label: t('INSTRUMENT NAME'), sortable: true },
      { key: 'base', label: t('BASE'), sortable: true },
      { key: 'quote', label: t('QUOTE'), sortable: true },
      { key: 'bids', label: t('BIDS'), sortable: true },
      { key: 'asks', label: t('ASKS'), sortable: true },
      { key: 'tradingview', label: t('CHART PROVIDER'), sortable: true },
      { key: 'alias', label: t('ALIAS'), sortable: true },
      { key: 'leverage', label: t('LEVERAGE'), sortable: true },
      {
        key: 'tradable',
        label: t('TRADABLE'),
        sortable: true,
        render: (i) =>
          i.tradable ? <StatusChip label={t('Yes')} color="green" /> : <StatusChip label={t('No')} color="red" />,
      },
      {
        key: 'actions',
        label: t('ACTIONS'),
        render: (i) => (
          <EditDeleteActions
            onEdit={() => setEditing({ mode: 'edit', instrument: i })}
            deleteMessage={t('Are you sure to delete this pair?')}
            onDelete={() => remove(i)}
          />
        ),
      },
    ],
    [t, remove],
  );

  const close = () => setEditing(null);

  return (
    <>
      <DataTable<AdminInstrumentDto>
        url={url}
        columns={columns}
        toolbar={<AddNewButton onClick={() => setEditing({ mode: 'add' })} />}
        exportable
      />
      <Modal
        opened={editing !== null}
        onClose={close}
        size="lg"
        title={editing?.mode === 'edit' ? t('Edit Instrument') : t('Add Instrument')}
      >
        {editing && (
          <InstrumentForm
            key={editing.mode === 'edit' ? editing.instrument.id : 'new'}
            instrument={editing.mode === 'edit' ? editing.instrument : undefined}
            category={type}
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
