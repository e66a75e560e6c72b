import type { ReactNode } from 'react';
import { Box, Group, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import type { TFunction } from 'i18next';
import { formatDateTime, formatMoney, type Customer360, type KycListStatus } from '@platform/domain';
import { StatusChip, type DataTableColumn } from '../../../ui/data-table/index.ts';
import { CardFigure } from '../../../ui/responsive-list/index.ts';

/**
 * Customer 360 in the back-office lists (customers, CRM leads): the customer's main real wallet, first deposit, KYC
 * state, last sign-in and presence as table columns sorted by the server, and as the figures of a phone's card.
 */

const KYC_LOOK: Record<KycListStatus, { label: string; color: string }> = {
  approved: { label: 'Approved', color: 'green' },
  pending: { label: 'Pending', color: 'yellow' },
  declined: { label: 'Declined', color: 'red' },
  none: { label: 'Not submitted', color: 'gray' },
};
export const kycLabel = (status: KycListStatus) => KYC_LOOK[status].label;

const money = (amount: string | null, currency: string | null) =>
  amount === null ? null : formatMoney(amount, currency);
const day = (iso: string | null) => (iso ? formatDateTime(iso).split(' ')[0] : null);
const figure: React.CSSProperties = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' };

export function KycChip({ status, t }: { status: KycListStatus; t: TFunction }) {
  return <StatusChip label={t(KYC_LOOK[status].label)} color={KYC_LOOK[status].color} />;
}

/** The green or red presence dot, labelled for screen readers. */
export function OnlineDot({ online, t }: { online: boolean; t: TFunction }) {
  const label = online ? t('Online') : t('Offline');
  return (
    <Tooltip label={label}>
      <Box
        component="span"
        aria-label={label}
        data-online={online}
        w={10}
        h={10}
        display="inline-block"
        style={{ borderRadius: '50%', background: `var(--mantine-color-${online ? 'green' : 'red'}-6)` }}
      />
    </Tooltip>
  );
}

/** The live equity (the risk engine's, at the list's answer), red below zero. */
function Equity({ c, t }: { c: Customer360; t: TFunction }) {
  if (c.equity === null) return null;
  return (
    <Text
      span
      size="sm"
      style={figure}
      c={Number(c.equity) < 0 ? 'red' : undefined}
      title={t('Balance plus open positions’ profit or loss, live')}
    >
      {money(c.equity, c.currency)}
    </Text>
  );
}

/** The first deposit: its day, and the amount under it. */
function FirstDeposit({ c }: { c: Customer360 }) {
  if (c.ftd_at === null) return null;
  return (
    <Stack gap={0}>
      <Text span size="sm" style={figure}>
        {day(c.ftd_at)}
      </Text>
      <Text span size="xs" c="dimmed" style={figure}>
        {money(c.ftd_amount, c.ftd_currency)}
      </Text>
    </Stack>
  );
}

export type Customer360Column = 'summary' | 'balance' | 'equity' | 'ftd' | 'kyc' | 'last_login' | 'online';

/**
 * The Customer 360 columns of a list whose rows carry the figures (`of` reads them; null: no customer). Each header
 * sorts on the server. `only` picks some (default: all but online), `hidden` the ones that start hidden (the column
 * chooser shows them), `labels` renames some, `onlineOf` gives the live presence of a row.
 */
export function customer360Columns<T>(
  t: TFunction,
  of: (row: T) => Customer360 | null | undefined,
  opts: {
    only?: readonly Customer360Column[];
    hidden?: readonly Customer360Column[];
    labels?: Partial<Record<Customer360Column, string>>;
    onlineOf?: (row: T) => boolean;
  } = {},
): DataTableColumn<T>[] {
  const hidden = new Set(opts.hidden ?? []);
  const only = new Set(opts.only ?? ['balance', 'equity', 'ftd', 'kyc', 'last_login']);
  const cell = (draw: (c: Customer360) => ReactNode) => (row: T) => {
    const c = of(row);
    return c ? draw(c) : null;
  };
  const columns: Array<DataTableColumn<T> & { kind: Customer360Column }> = [
    // The lead lists' compact column: presence and live equity, the KYC state under them (sorted by equity).
    {
      key: 'c360_summary',
      kind: 'summary',
      label: opts.labels?.summary ?? t('CUSTOMER'),
      serverSort: 'equity',
      hidden: hidden.has('summary'),
      truncate: false,
      render: (row) => {
        const c = of(row);
        if (!c) return null;
        return (
          <Stack gap={2} align="flex-start">
            <Group gap={6} wrap="nowrap">
              <OnlineDot online={opts.onlineOf ? opts.onlineOf(row) : c.online} t={t} />
              <Equity c={c} t={t} />
            </Group>
            <KycChip status={c.kyc_status} t={t} />
          </Stack>
        );
      },
    },
    {
      key: 'c360_balance',
      label: opts.labels?.balance ?? t('BALANCE'),
      kind: 'balance',
      serverSort: 'balance',
      hidden: hidden.has('balance'),
      truncate: false,
      render: cell((c) => (
        <Text span size="sm" style={figure}>
          {money(c.balance, c.currency)}
        </Text>
      )),
    },
    {
      key: 'c360_equity',
      label: opts.labels?.equity ?? t('EQUITY'),
      kind: 'equity',
      serverSort: 'equity',
      hidden: hidden.has('equity'),
      truncate: false,
      render: cell((c) => <Equity c={c} t={t} />),
    },
    {
      key: 'c360_ftd',
      label: opts.labels?.ftd ?? t('FTD'),
      kind: 'ftd',
      serverSort: 'ftd_at',
      hidden: hidden.has('ftd'),
      truncate: false,
      render: cell((c) => <FirstDeposit c={c} />),
    },
    {
      key: 'c360_kyc',
      label: opts.labels?.kyc ?? t('KYC'),
      kind: 'kyc',
      serverSort: 'kyc_status',
      hidden: hidden.has('kyc'),
      truncate: false,
      render: cell((c) => <KycChip status={c.kyc_status} t={t} />),
    },
    {
      key: 'c360_last_login',
      label: opts.labels?.last_login ?? t('LAST LOGIN'),
      kind: 'last_login',
      serverSort: 'last_login_at',
      hidden: hidden.has('last_login'),
      truncate: false,
      render: cell((c) =>
        c.last_login_at ? (
          <Text span size="sm" style={figure}>
            {formatDateTime(c.last_login_at)}
          </Text>
        ) : null,
      ),
    },
  ];
  columns.push({
    key: 'c360_online',
    kind: 'online',
    label: opts.labels?.online ?? t('ONLINE'),
    serverSort: 'online',
    hidden: hidden.has('online'),
    width: 70,
    render: (row) => {
      const c = of(row);
      return c ? <OnlineDot online={opts.onlineOf ? opts.onlineOf(row) : c.online} t={t} /> : null;
    },
  });
  return columns.filter((c) => only.has(c.kind)).map(({ kind: _, ...c }) => c);
}

/** The figures of a customer on a phone's card: equity and balance, first deposit, KYC and last sign-in. */
export function Customer360Figures({ c, t }: { c: Customer360 | null | undefined; t: TFunction }) {
  if (!c) return null;
  return (
    <SimpleGrid cols={2} spacing="xs" verticalSpacing={6} mt={6}>
      <CardFigure label={t('Equity')} value={money(c.equity, c.currency) ?? '-'} />
      <CardFigure label={t('Balance')} value={money(c.balance, c.currency) ?? '-'} bold={false} />
      <CardFigure
        label={t('FTD')}
        value={c.ftd_at ? `${day(c.ftd_at)} · ${money(c.ftd_amount, c.ftd_currency)}` : '-'}
        bold={false}
      />
      <div>
        <Text size="xs" c="dimmed">
          {t('KYC')}
        </Text>
        <KycChip status={c.kyc_status} t={t} />
      </div>
      <CardFigure
        label={t('Last login')}
        value={c.last_login_at ? formatDateTime(c.last_login_at) : '-'}
        bold={false}
      />
    </SimpleGrid>
  );
}
