import { useMemo, useState } from 'react';
import { Badge, Button, CloseButton, Group, Select, Stack, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PENDING_STATUSES, type AdminPendingDto } from '@platform/domain';
import { apiPost } from '../../../api/client.ts';
import { ConfirmPopover, DataTable, type DataTableColumn } from '../../../ui/data-table/index.ts';
import { useListActions } from '../../../ui/list-page/index.ts';
import { expiryText, pendingTypeLabel, STATUS_COLORS, STATUS_LABELS } from '../../trading/pendingFormat.ts';
import { customerColumn, plain } from './cells.tsx';

const URL = '/admin/pending-orders';

/**
 * Trades → Pending Orders: every customer's pending orders (a manager's own customers' as the server decides),
 * filtered by status and by customer (the search matches the email; `?userId=` narrows to one), with Cancel and a
 * required reason for waiting ones (audited by the server).
 */
export function PendingOrdersAdmin() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [status, setStatus] = useState<string>('pending');
  const userId = params.get('userId') ?? undefined;
  const { act } = useListActions(URL);

  const columns = useMemo<DataTableColumn<AdminPendingDto>[]>(
    () => [
      { key: 'id', label: t('ID'), sortable: true, width: 70 },
      customerColumn<AdminPendingDto>(t),
      {
        key: 'order_type',
        label: t('TYPE'),
        sortable: true,
        sortValue: (r) => pendingTypeLabel(r),
        render: (r) => (
          <Text span size="sm" fw={600} c={r.type === 'buy' ? 'teal' : 'red'}>
            {t(pendingTypeLabel(r))}
          </Text>
        ),
      },
      { key: 'instrument', label: t('INSTRUMENT'), sortable: true },
      { key: 'amount', label: t('AMOUNT'), sortable: true, render: (r) => plain(r.amount) },
      { key: 'price', label: t('PRICE'), sortable: true, render: (r) => plain(r.price) },
      // Only stop-limits have one: shown with the column chooser, so status and actions fit at 1440 px.
      { key: 'limit_price', label: t('LIMIT PRICE'), hidden: true, render: (r) => plain(r.limit_price) },
      { key: 'loss', label: t('STOP LOSS'), hidden: true, render: (r) => plain(r.loss) },
      { key: 'profit', label: t('TAKE PROFIT'), hidden: true, render: (r) => plain(r.profit) },
      {
        key: 'expiry',
        label: t('EXPIRY'),
        render: (r) => {
          const e = expiryText(r);
          return (
            <Text span size="sm" title={t(e.title)}>
              {e.at ? `${t(e.label)} ${e.at}` : t(e.label)}
            </Text>
          );
        },
      },
      { key: 'reason', label: t('REASON'), hidden: true },
      { key: 'created_at', label: t('CREATED'), sortable: true, hidden: true },
      {
        key: 'status',
        label: t('STATUS'),
        render: (r) => (
          <Stack gap={4} align="flex-start">
            <Badge color={STATUS_COLORS[r.status]} miw="max-content">
              {t(STATUS_LABELS[r.status])}
            </Badge>
            {r.oco_id !== null && (
              <Badge color="grape" variant="outline" miw="max-content">
                {t('OCO')}
              </Badge>
            )}
          </Stack>
        ),
      },
      {
        key: 'actions',
        label: t('ACTIONS'),
        render: (r) =>
          r.status === 'pending' && (
            <ConfirmPopover
              message={t('Cancel this pending order?')}
              reasonLabel={t('Reason')}
              reasonRequired
              onConfirm={(reason) =>
                act(
                  () => apiPost<{ message?: string }>(`${URL}/${r.id}/cancel`, { reason }),
                  (answer) => (answer?.message ? t(answer.message) : t('Pending order cancelled')),
                )
              }
            >
              <Button size="compact-xs" color="red" variant="light">
                {t('Cancel order')}
              </Button>
            </ConfirmPopover>
          ),
      },
    ],
    [t, act],
  );

  const toolbar = (
    <Group gap="xs" wrap="nowrap">
      <Select
        aria-label={t('Status')}
        w={150}
        data={[
          { value: 'all', label: t('All statuses') },
          ...PENDING_STATUSES.map((s) => ({ value: s, label: t(STATUS_LABELS[s]) })),
        ]}
        value={status}
        onChange={(v) => setStatus(v ?? 'pending')}
        allowDeselect={false}
      />
      {userId && (
        <Badge
          size="lg"
          variant="light"
          rightSection={
            <CloseButton
              size="xs"
              aria-label={t('Show every customer')}
              onClick={() => {
                params.delete('userId');
                setParams(params);
              }}
            />
          }
        >
          {t('Customer #{{id}}', { id: userId })}
        </Badge>
      )}
    </Group>
  );

  return (
    <DataTable<AdminPendingDto>
      url={URL}
      columns={columns}
      filters={{ status: status === 'all' ? undefined : status, userId }}
      searchPlaceholder={t('Search by customer email')}
      toolbar={toolbar}
    />
  );
}
