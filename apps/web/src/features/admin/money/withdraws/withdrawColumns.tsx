import type { TFunction } from 'i18next';
import type { MoneyRecordDto } from '@platform/domain';
import type { DataTableColumn } from '../../../../ui/data-table/index.ts';
import { BankDetails, ReviewStatusChip, UserEmailLink, gatewayLabel, walletMoney } from '../shared.tsx';

type Column = DataTableColumn<MoneyRecordDto>;

/**
 * The columns both withdraw lists share (back-office spec §2): a bank withdrawal's gateway cell is its bank name with
 * a Details popover; amounts carry the wallet's currency symbol.
 */
export function withdrawColumns(t: TFunction) {
  const column = {
    id: { key: 'id', label: t('ID'), sortable: true, width: 70 },
    user: { key: 'user.email', label: t('USER'), sortable: true, render: (r) => <UserEmailLink user={r.user} /> },
    gateway: {
      key: 'gateway',
      label: t('GATEWAY'),
      sortable: true,
      render: (r) => (r.formattedDescription ? <BankDetails bank={r.formattedDescription} /> : gatewayLabel(r.gateway)),
    },
    // Secondary at 1440 px (the bank's details are in the gateway cell's popover): shown from the column chooser.
    description: { key: 'description', label: t('DESCRIPTION'), hidden: true },
    declineReason: { key: 'decline_reason', label: t('DECLINE REASON'), truncate: 140 },
    amount: { key: 'amount', label: t('AMOUNT'), sortable: true, render: (r) => walletMoney(r, r.amount) },
    fee: { key: 'fee', label: t('FEE'), sortable: true, hidden: true, render: (r) => walletMoney(r, r.fee) },
    total: { key: 'total', label: t('TOTAL'), sortable: true, render: (r) => walletMoney(r, r.total) },
    status: {
      key: 'status',
      label: t('STATUS'),
      sortable: true,
      render: (r) => <ReviewStatusChip status={r.status} />,
    },
  } satisfies Record<string, Column>;
  const date = (label: string): Column => ({ key: 'created_at', label, sortable: true, type: 'date' });
  return { ...column, date };
}
