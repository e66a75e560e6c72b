import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { SalesStatusItem } from '@platform/domain';
import type { ApiError } from '../../../api/client.ts';
import type { DataTableColumn } from '../../../ui/data-table/index.ts';
import { ListPage } from '../../../ui/list-page/index.ts';
import { SalesStatusForm } from './SalesStatusForm.tsx';
import { SALES_STATUSES_URL } from './useSalesStatuses.ts';

const deleteUrl = (s: SalesStatusItem) => `/admin/crm-config/sales-statuses/${s.id}`;
// A status leads still have, or the default: the server says what to do first.
const isConflict = (err: ApiError) => err.status === 409;

/** CRM configuration: Sales Statuses (/admin/crm-config/sales-statuses), back-office §2. */
export function SalesStatusesPage() {
  const { t } = useTranslation();
  const columns = useMemo<DataTableColumn<SalesStatusItem>[]>(
    () => [
      { key: 'status', label: t('STATUS'), sortable: true },
      { key: 'is_default', label: t('IS DEFAULT'), sortable: true, render: (s) => (s.is_default ? t('Yes') : t('No')) },
    ],
    [t],
  );
  return (
    <ListPage<SalesStatusItem>
      url={SALES_STATUSES_URL}
      columns={columns}
      // Statuses show on the leads list and in its filters: every list reloads after a change.
      refreshAllLists
      addTitle={t('Add Sales Status')}
      editTitle={t('Edit Sales Status')}
      deleteMessage={t('Are you sure to delete this sale status?')}
      deleteUrl={deleteUrl}
      deletedMessage={t('Sales Status deleted successfully')}
      explainRefusal={isConflict}
      form={(props) => <SalesStatusForm {...props} />}
    />
  );
}
