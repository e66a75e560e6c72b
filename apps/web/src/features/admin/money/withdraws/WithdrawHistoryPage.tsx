import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { MoneyRecordDto } from '@platform/domain';
import { DataTable, type DataTableColumn } from '../../../../ui/data-table/index.ts';
import { withdrawColumns } from './withdrawColumns.tsx';

export const WITHDRAW_HISTORY_URL = '/admin/withdraws/api/history';

/** Withdraw History (/admin/withdraws/history): every withdrawal with its decline reason; no search (back-office spec §2). */
export function WithdrawHistoryPage() {
  const { t } = useTranslation();
  const columns = useMemo<DataTableColumn<MoneyRecordDto>[]>(() => {
    const c = withdrawColumns(t);
    return [
      c.id,
      c.user,
      c.gateway,
      c.description,
      c.declineReason,
      c.amount,
      c.fee,
      c.total,
      c.status,
      c.date(t('Date')),
    ];
  }, [t]);
  return <DataTable<MoneyRecordDto> url={WITHDRAW_HISTORY_URL} columns={columns} searchable={false} exportable />;
}
