import { useState, type ReactNode } from 'react';
import { ActionIcon, Badge, Button, Group, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import type { TFunction } from 'i18next';
import { IconBellPlus, IconMail, IconPencil, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  dec,
  formatOrderTime,
  GENERIC_ERROR,
  MAX_ACTIVE_ALERTS,
  type AlertDto,
  type InstrumentDto,
} from '@platform/domain';
import { errorMessage } from '../../../api/client.ts';
import { ConfirmPopover } from '../../../ui/data-table/ConfirmPopover.tsx';
import { CardFigure, ResponsiveList, type ListColumn } from '../../../ui/responsive-list/index.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import { useInstruments } from '../api.ts';
import { formatPrice } from '../figures.ts';
import { useLivePrices } from '../quotes.ts';
import { AlertDialog, instrumentTitle } from './AlertDialog.tsx';
import { useAlerts, useDeleteAlert } from './api.ts';

export interface AlertsPanelProps {
  /** The instrument selected in the terminal: a new alert starts on it (an InstrumentDto or its name). */
  selectedInstrument?: InstrumentDto | string | null;
  /** The same, under the name the positions area's tab passes it. */
  instrument?: InstrumentDto | string | null;
}

const nowrap = { whiteSpace: 'nowrap' } as const;
const nameOf = (i: InstrumentDto | string | null | undefined) => (typeof i === 'string' ? i : i?.name);

/** What a row shows, computed once for the table and the cards. */
interface AlertRow {
  alert: AlertDto;
  instrument: string;
  /** "Bid ≥ 1.08500" */
  rule: string;
  status: { label: string; color: string; detail: string | null };
  created: string;
}

/**
 * The Alerts tab of the terminal: the client's price alerts (active first, then the latest fired) with edit and
 * delete, and a New Alert button that starts on the selected instrument at its current price. The server fires
 * alerts whether or not this screen is open; `alertsChanged` refreshes the list and the `user:{id}` notification
 * shows the toast. A table on wide screens, one card per alert on a phone.
 */
export function AlertsPanel({ selectedInstrument, instrument }: AlertsPanelProps) {
  const { t } = useTranslation();
  useLivePrices();
  const alerts = useAlerts();
  const instruments = useInstruments();
  const remove = useDeleteAlert();
  const [dialog, setDialog] = useState<{ alert?: AlertDto } | null>(null);
  const byName = new Map((instruments.data ?? []).map((i) => [i.name, i]));
  const selected = nameOf(selectedInstrument) ?? nameOf(instrument);

  const rows: AlertRow[] = (alerts.data ?? []).map((a) => {
    const i = byName.get(a.instrument);
    const digits = i?.digits ?? dec(a.price).decimalPlaces();
    const fired = a.status === 'fired';
    return {
      alert: a,
      instrument: instrumentTitle(i, a.instrument),
      rule: `${a.side === 'bid' ? t('Bid') : t('Ask')} ${a.condition === 'above' ? '≥' : '≤'} ${formatPrice(a.price, digits)}`,
      status: fired
        ? {
            label: t('Fired'),
            color: 'gray',
            detail: `${formatPrice(a.fired_price, digits)} · ${formatOrderTime(a.fired_at)}`,
          }
        : { label: t('Active'), color: 'teal', detail: null },
      created: formatOrderTime(a.created_at),
    };
  });
  const active = rows.filter((r) => r.alert.status === 'active').length;
  const empty = alerts.isPending
    ? t('Loading...')
    : alerts.isError
      ? t('Something went wrong')
      : t('No alerts yet. Create one to hear when a price is reached.');

  const onDelete = (a: AlertDto) =>
    remove.mutateAsync(a.id).then(
      (res) => toastSuccess(t(res.message)),
      (err: unknown) => toastError(errorMessage(err, t(GENERIC_ERROR))),
    );
  const actions = (r: AlertRow, large: boolean) => (
    <Group gap={large ? 6 : 4} wrap="nowrap">
      <Tooltip label={r.alert.status === 'fired' ? t('Edit and arm again') : t('Edit')}>
        <ActionIcon
          variant="light"
          size={large ? 'lg' : 'md'}
          aria-label={t('Edit alert {{rule}}', { rule: r.rule })}
          onClick={() => setDialog({ alert: r.alert })}
        >
          <IconPencil size={large ? 18 : 16} />
        </ActionIcon>
      </Tooltip>
      <ConfirmPopover message={t('Delete this alert?')} onConfirm={() => onDelete(r.alert)}>
        <ActionIcon
          variant="light"
          color="red"
          size={large ? 'lg' : 'md'}
          aria-label={t('Delete alert {{rule}}', { rule: r.rule })}
        >
          <IconTrash size={large ? 18 : 16} />
        </ActionIcon>
      </ConfirmPopover>
    </Group>
  );

  return (
    <Stack gap="sm" data-testid="alerts-panel">
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" c="dimmed">
          {t('{{n}} of {{max}} active', { n: active, max: MAX_ACTIVE_ALERTS })}
        </Text>
        <Button
          size="xs"
          leftSection={<IconBellPlus size={16} />}
          onClick={() => setDialog({})}
          disabled={active >= MAX_ACTIVE_ALERTS}
        >
          {t('New Alert')}
        </Button>
      </Group>
      <ResponsiveList
        rows={rows}
        columns={alertColumns(t, (r) => actions(r, false))}
        card={(r) => <AlertCard row={r} actions={actions(r, true)} />}
        rowKey={(r) => r.alert.id}
        rowTestId={(r) => `alert-${r.alert.id}`}
        emptyText={empty}
        cardsTestId="alert-cards"
      />
      {dialog && <AlertDialog alert={dialog.alert} defaultInstrument={selected} onClose={() => setDialog(null)} />}
    </Stack>
  );
}

function StatusBadge({ row }: { row: AlertRow }) {
  return (
    <Badge color={row.status.color} variant="light" miw="max-content">
      {row.status.label}
    </Badge>
  );
}

function EmailMark({ on }: { on: boolean }) {
  const { t } = useTranslation();
  return on ? (
    <Tooltip label={t('Also by email')}>
      <IconMail size={16} aria-label={t('Also by email')} />
    </Tooltip>
  ) : (
    <Text span c="dimmed">
      -
    </Text>
  );
}

function alertColumns(t: TFunction, actions: (r: AlertRow) => ReactNode): ListColumn<AlertRow>[] {
  const line = (text: string, fw?: number) => (
    <Text span size="sm" fw={fw} style={nowrap}>
      {text}
    </Text>
  );
  return [
    { key: 'instrument', label: t('Instrument'), render: (r) => line(r.instrument, 600) },
    { key: 'rule', label: t('Alert'), render: (r) => line(r.rule) },
    { key: 'email', label: t('Email'), render: (r) => <EmailMark on={r.alert.email} /> },
    { key: 'status', label: t('Status'), render: (r) => <StatusBadge row={r} /> },
    { key: 'fired', label: t('Fired at'), render: (r) => line(r.status.detail ?? '-') },
    { key: 'created', label: t('Created'), render: (r) => line(r.created) },
    { key: 'actions', label: '', render: actions },
  ];
}

/** An alert on a phone: instrument, status and the actions, then its rule and when it fired or was made. */
function AlertCard({ row: r, actions }: { row: AlertRow; actions: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Group gap="xs" wrap="nowrap" miw={0}>
          <Text fw={700} truncate>
            {r.instrument}
          </Text>
          <StatusBadge row={r} />
          {r.alert.email && <EmailMark on />}
        </Group>
        {actions}
      </Group>
      <SimpleGrid cols={2} spacing="xs" mt={6}>
        <CardFigure label={t('Alert')} value={r.rule} />
        <CardFigure
          label={r.status.detail ? t('Fired at') : t('Created')}
          value={r.status.detail ?? r.created}
          bold={false}
        />
      </SimpleGrid>
    </>
  );
}
