import { useMemo } from 'react';
import { Anchor, Image } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ExternalPaymentDto } from '@platform/domain';
import type { DataTableColumn } from '../../../../ui/data-table/index.ts';
import { ListPage } from '../../../../ui/list-page/index.ts';
import { ExternalPaymentForm } from './ExternalPaymentForm.tsx';

export const EXTERNAL_PAYMENTS_URL = '/admin/externalPayments/api';

const deleteUrl = (payment: ExternalPaymentDto) => `/admin/externalPayments/${payment.id}`;

/** External Payments (/admin/externalPayments): payment links offered on the deposit page, with add, edit and delete. */
export function ExternalPaymentsPage() {
  const { t } = useTranslation();
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
    ],
    [t],
  );
  return (
    <ListPage<ExternalPaymentDto>
      url={EXTERNAL_PAYMENTS_URL}
      columns={columns}
      exportable
      addTitle={t('Add External Payment')}
      editTitle={t('Edit External Payment')}
      deleteMessage={t('Are you sure to delete this payment?')}
      deleteUrl={deleteUrl}
      deletedMessage={t('Payment deleted successfully')}
      form={({ item, ...props }) => <ExternalPaymentForm payment={item} {...props} />}
    />
  );
}
