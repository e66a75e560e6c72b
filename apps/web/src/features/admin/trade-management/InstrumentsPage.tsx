import { useMemo } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CATEGORIES, type AdminInstrumentDto, type Category } from '@platform/domain';
import type { ApiError } from '../../../api/client.ts';
import { StatusChip, type DataTableColumn } from '../../../ui/data-table/index.ts';
import { ListPage } from '../../../ui/list-page/index.ts';
import { PageNotFound } from '../StatusViews.tsx';
import { InstrumentForm } from './InstrumentForm.tsx';

export const instrumentsUrl = (type: Category) => `/admin/instruments/api/${type}`;

const isCategory = (v: string | undefined): v is Category => (CATEGORIES as readonly string[]).includes(v ?? '');
const deleteUrl = (instrument: AdminInstrumentDto) => `/admin/instruments/${instrument.id}`;
// A refusal the admin can act on (open positions, trade history) says why; anything else is generic (spec §8).
const isConflict = (err: ApiError) => err.status === 409;

/** Instruments (/admin/instruments/{type}): the category's instruments with add, edit and delete (back-office spec §2). */
export function InstrumentsPage() {
  const { type } = useParams();
  if (!isCategory(type)) return <PageNotFound />;
  // Keyed by the type so switching category starts a fresh table (search, page, modal).
  return <InstrumentsList key={type} type={type} />;
}

function InstrumentsList({ type }: { type: Category }) {
  const { t } = useTranslation();
  const columns = useMemo<DataTableColumn<AdminInstrumentDto>[]>(
    () => [
      { key: 'id', label: t('ID'), sortable: true, width: 70 },
      { key: 'name', label: t('INSTRUMENT NAME'), sortable: true },
      { key: 'base', label: t('BASE'), sortable: true },
      { key: 'quote', label: t('QUOTE'), sortable: true },
      { key: 'bids', label: t('BIDS'), sortable: true },
      { key: 'asks', label: t('ASKS'), sortable: true },
      { key: 'tradingview', label: t('CHART PROVIDER'), sortable: true, hidden: true },
      { key: 'alias', label: t('ALIAS'), sortable: true, hidden: true },
      { key: 'leverage', label: t('LEVERAGE'), sortable: true },
      {
        key: 'tradable',
        label: t('TRADABLE'),
        sortable: true,
        render: (i) =>
          i.tradable ? <StatusChip label={t('Yes')} color="green" /> : <StatusChip label={t('No')} color="red" />,
      },
    ],
    [t],
  );
  return (
    <ListPage<AdminInstrumentDto>
      url={instrumentsUrl(type)}
      columns={columns}
      exportable
      addTitle={t('Add Instrument')}
      editTitle={t('Edit Instrument')}
      deleteMessage={t('Are you sure to delete this pair?')}
      deleteUrl={deleteUrl}
      deletedMessage={t('Instrument deleted successfully')}
      explainRefusal={isConflict}
      form={({ item, ...props }) => <InstrumentForm instrument={item} category={type} {...props} />}
    />
  );
}
