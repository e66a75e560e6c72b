import { useCallback, useMemo, useState } from 'react';
import { Badge, Button, Group, Modal, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AdminTradeDto } from '@platform/domain';
import { apiPost, apiPut, errorMessage } from '../../../api/client.ts';
import { ConfirmPopover, DataTable, EditDeleteActions, type DataTableColumn } from '../../../ui/data-table/index.ts';
import { useListPage } from '../../../ui/list-page/index.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import { chargeCell, customerColumn, plain } from './cells.tsx';
import { LivePlProvider, TradePlCell, useLiveTradePl } from './liveTradePl.tsx';
import { toastIfSentForApproval } from '../approvals/pending.ts';
import { PendingOrdersAdmin } from './PendingOrdersAdmin.tsx';

const deleteUrl = (trade: AdminTradeDto) => `/admin/trades/${trade.id}`;
/** A refused delete shows the server's words. */
const explainRefusal = () => true;
const colored = (v: string | null) =>
  v === null ? null : (
    <Text span size="sm" c={Number(v) > 0 ? 'teal' : 'red'} ff="monospace">
      {plain(v)}
    </Text>
  );

interface EditValues {
  openRate: string;
  closeRate: string;
  spread: string;
  profit: string;
  loss: string;
  openTime: string;
}

/** Edit Order (spec §2): open rate, spread, take profit, stop loss and open time; the close rate only on closed trades. */
function EditOrderModal({
  trade,
  onClose,
  onSaved,
}: {
  trade: AdminTradeDto;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const open = trade.close_time === null;
  const form = useForm<EditValues>({
    initialValues: {
      openRate: trade.open_rate,
      closeRate: trade.close_rate ?? '',
      spread: trade.spread,
      profit: trade.profit ?? '',
      loss: trade.loss ?? '',
      openTime: trade.created_at.slice(0, 16),
    },
  });
  const save = useMutation({
    mutationFn: (v: EditValues) =>
      apiPut(`/admin/trades/${trade.id}`, {
        ...(open ? {} : { openRate: v.openRate, spread: v.spread, closeRate: v.closeRate }),
        profit: v.profit.trim() === '' ? null : v.profit.trim(),
        loss: v.loss.trim() === '' ? null : v.loss.trim(),
        openTime: v.openTime,
      }),
    onSuccess: (res) => {
      if (!toastIfSentForApproval(t, res)) toastSuccess(t('Order updated successfully'));
      onSaved();
    },
    onError: (err) => toastError(errorMessage(err, t('Something went wrong'))),
  });
  return (
    <Modal opened onClose={onClose} title={t('Edit Order')} size="lg">
      <form onSubmit={form.onSubmit((v) => save.mutate(v))}>
        <Stack>
          <TextInput label={t('Open Rate')} disabled={open} {...form.getInputProps('openRate')} />
          <TextInput
            label={t('Close Rate')}
            disabled={open}
            description={open ? t('Orders that are still open cannot edit this field.') : undefined}
            {...form.getInputProps('closeRate')}
          />
          <TextInput label={t('Spread')} disabled={open} {...form.getInputProps('spread')} />
          <TextInput label={t('Take Profit')} {...form.getInputProps('profit')} />
          <TextInput label={t('Stop Loss')} {...form.getInputProps('loss')} />
          <TextInput label={t('Open Time')} description="YYYY-MM-DDTHH:mm (UTC)" {...form.getInputProps('openTime')} />
          {!open && (
            <Text size="xs" c="dimmed">
              {t('A new P/L moves the client’s wallet by the difference, with a ledger entry naming this edit.')}
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {t('Submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

const TRADE_TABS = [
  { value: 'all', label: 'All Trades' },
  { value: 'open', label: 'Open Trades' },
  { value: 'closed', label: 'Closed Trades' },
  { value: 'pending', label: 'Pending Orders' },
] as const;

/**
 * Trades (/admin/trades/{all,open,closed,pending}): every customer's positions for admins, a manager's customers' for
 * managers, and their pending orders; tabs switch between the lists.
 */
export function TradesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { type = 'all' } = useParams();
  return (
    <Stack gap="sm">
      <Tabs value={type} onChange={(v) => v && navigate(`/admin/trades/${v}`)}>
        <Tabs.List>
          {TRADE_TABS.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value}>
              {t(tab.label)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {type === 'pending' ? <PendingOrdersAdmin /> : <TradeList type={type} />}
    </Stack>
  );
}

/** One of the trade lists (all, open or closed): close, Edit Order and delete per row. */
function TradeList({ type }: { type: string }) {
  const { t } = useTranslation();
  const url = `/admin/trades/api/${type}`;
  const list = useListPage<AdminTradeDto>({
    url,
    deleteUrl,
    deletedMessage: t('Order deleted successfully'),
    explainRefusal,
  });
  const { act, openEdit, remove } = list;
  const [rows, setRows] = useState<readonly AdminTradeDto[]>([]);
  const onRowsChange = useCallback((r: readonly AdminTradeDto[]) => setRows(r), []);
  const livePl = useLiveTradePl(rows);

  const columns = useMemo<DataTableColumn<AdminTradeDto>[]>(
    () => [
      { key: 'id', label: t('ID'), sortable: true, width: 70 },
      customerColumn<AdminTradeDto>(t),
      { key: 'type', label: t('TYPE'), sortable: true, render: (r) => t(r.type === 'buy' ? 'Buy' : 'Sell') },
      { key: 'instrument', label: t('INSTRUMENT'), sortable: true },
      { key: 'open_rate', label: t('OPEN RATE'), sortable: true, render: (r) => plain(r.open_rate) },
      // Secondary columns start hidden so status and actions fit at 1440 px; the column chooser shows them.
      {
        key: 'close_rate',
        label: t('CLOSE RATE'),
        sortable: true,
        hidden: type === 'open',
        render: (r) => plain(r.close_rate),
      },
      { key: 'spread', label: t('SPREAD'), sortable: true, hidden: true, render: (r) => colored(r.spread) },
      { key: 'margin_used', label: t('MARGIN USED'), sortable: true, render: (r) => plain(r.margin_used) },
      {
        key: 'pro_loss',
        label: t('PRO/LOSS'),
        sortable: true,
        sortValue: (r) => r.pro_loss ?? r.live_pl,
        render: (r) => <TradePlCell trade={r} />,
      },
      // What the rollovers charged (negative) or credited so far; already in the wallet's balance.
      {
        key: 'swap',
        label: t('SWAP'),
        sortable: true,
        render: (r) => chargeCell(r.swap),
      },
      // The plan's commission charged at open and/or close so far (negative); already in the wallet's balance.
      // Hidden at first: a twelfth column would push status and actions out of view at 1440 px.
      {
        key: 'commission',
        label: t('COMMISSION'),
        sortable: true,
        hidden: true,
        render: (r) => chargeCell(r.commission),
      },
      { key: 'profit', label: t('TAKE PROFIT'), hidden: true, render: (r) => plain(r.profit) },
      { key: 'loss', label: t('STOP LOSS'), hidden: true, render: (r) => plain(r.loss) },
      { key: 'leverage', label: t('LEVERAGE'), sortable: true, hidden: true },
      {
        key: 'status',
        label: t('STATUS'),
        render: (r) =>
          r.close_time ? (
            <Badge color="red">{t('Closed')}</Badge>
          ) : (
            <Group gap={6} wrap="nowrap">
              {/* Whole beside its button: the USER column gives way instead. */}
              <Badge color="green" style={{ flexShrink: 0 }}>
                {t('Open')}
              </Badge>
              <ConfirmPopover
                message={t('Are you sure to close this order?')}
                onConfirm={() =>
                  act(
                    () => apiPost('/admin/trades/close', { orderId: r.id, instrument: r.instrument }),
                    t('Order closed successfully'),
                  )
                }
              >
                <Button size="compact-xs" color="red" variant="light">
                  {t('Close')}
                </Button>
              </ConfirmPopover>
            </Group>
          ),
      },
      {
        key: 'actions',
        label: t('ACTIONS'),
        render: (r) => (
          <EditDeleteActions
            onEdit={() => openEdit(r)}
            deleteMessage={t('Are you sure to delete this order?')}
            onDelete={() => remove(r)}
          />
        ),
      },
    ],
    [t, type, act, openEdit, remove],
  );

  return (
    <>
      <LivePlProvider value={livePl}>
        <DataTable<AdminTradeDto>
          key={url}
          url={url}
          columns={columns}
          searchable={false}
          exportable
          onRowsChange={onRowsChange}
        />
      </LivePlProvider>
      {list.editing?.item && <EditOrderModal trade={list.editing.item} onClose={list.close} onSaved={list.saved} />}
    </>
  );
}
