import { useCallback, useMemo, useState } from 'react';
import { Anchor, Badge, Button, CloseButton, Group, Select, Stack, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PENDING_STATUSES, type AdminPendingDto } from '@platform/domain';
import { apiPost, errorMessage } from '../../../api/client.ts';
import { ConfirmPopover, DataTable, useRefreshList, type DataTableColumn } from '../../../ui/data-table/index.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import { expiryText, pendingTypeLabel, STATUS_COLORS, STATUS_LABELS } from '../../trading/pendingFormat.ts';

const URL = '/admin/pending-orders';
/** A stored decimal without its trailing zeros (1.10000000 → 1.1), as the trades list shows figures. */
const plain = (v: string | null) => (v === null ? null : String(Number(v)));

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
  const refresh = useRefreshList(URL);

  const cancel = useCallback(
    async (row: AdminPendingDto, reason: string) => {
      try {
        const answer = await apiPost<{ message?: string }>(`${URL}/${row.id}/cancel`, { reason });
        toastSuccess(answer?.message || t('Pending order cancelled'));
        await refresh();
      } catch (err) {
        toastError(errorMessage(err, t('Something went wrong')));
      }
    },
    [t, refresh],
  );

  const columns = useMemo<DataTableColumn<AdminPendingDto>[]>(
    () => [
      { key: 'id', label: t('ID'), sortable: true, width: 70 },
      {
        key: 'user.email',
        label: t('USER'),
        render: (r) => (
          <Group gap={6} wrap="nowrap">
            <Badge size="xs" color={r.balance.mode === 'demo' ? 'yellow' : 'blue'} style={{ flexShrink: 0 }}>
              {t(r.balance.mode === 'demo' ? 'Demo' : 'Real')}
            </Badge>
            <Anchor component={Link} to={`/admin/customers/edit/${r.user.id}`} size="sm" truncate="end" miw={0}>
              {r.user.email}
            </Anchor>
          </Group>
        ),
      },
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
              onConfirm={(reason) => cancel(r, reason)}
            >
              <Button size="compact-xs" color="red" variant="light">
                {t('Cancel order')}
              </Button>
            </ConfirmPopover>
          ),
      },
    ],
    [t, cancel],
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
