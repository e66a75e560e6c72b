import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import type { PartnerClientDto, PartnerCommissionDto, PartnerSubpartnerDto } from '@platform/domain';
import type { ListColumn } from '../../ui/responsive-list/index.ts';

/**
 * The partner lists' columns, shared by the partner portal and the admins' view of a partner, each drawn by
 * ResponsiveList (a table on wide screens, a card a row on a phone: `cardOf` lists the columns as label and value).
 */

const money = (list: Array<{ currency: string; amount: string }>) =>
  list.length === 0 ? '0.00' : list.map((m) => `${Number(m.amount).toFixed(2)} ${m.currency}`).join(' · ');
const lots = (v: string) => Number(v).toFixed(2);
const day = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD') : '–');

/** A phone's card of a row: each column's label and value, one line each. */
export function cardOf<T>(columns: readonly ListColumn<T>[]) {
  return (row: T) => (
    <Stack gap={2}>
      {columns.map((c) => (
        <Group key={c.key} justify="space-between" wrap="nowrap" gap="xs">
          <Text size="xs" c="dimmed">
            {c.label}
          </Text>
          <Text size="sm" ta="right">
            {c.render(row)}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

/** A partner's clients; `staff` links each to its customer page and leaves out what the admin view does not show. */
export function clientColumns(t: TFunction, staff = false): ListColumn<PartnerClientDto>[] {
  const all: ListColumn<PartnerClientDto>[] = [
    {
      key: 'name',
      label: t('NAME'),
      render: (c) => (staff ? <Anchor href={`/admin/customers/edit/${c.id}`}>{c.name}</Anchor> : c.name),
    },
    { key: 'email', label: t('EMAIL'), render: (c) => c.email },
    { key: 'country', label: t('COUNTRY'), render: (c) => c.country ?? '–' },
    { key: 'joined', label: t('JOINED'), render: (c) => day(c.joinedAt) },
    { key: 'ftd', label: t('FIRST DEPOSIT'), render: (c) => day(c.ftdAt) },
    { key: 'lots', label: t('LOTS'), numeric: true, render: (c) => lots(c.lots) },
    {
      key: 'via',
      label: t('VIA'),
      render: (c) => t(c.source === 'promo' ? 'Promo code' : c.source === 'lead' ? 'Lead' : 'Staff'),
    },
  ];
  return staff ? all.filter((c) => ['name', 'email', 'lots', 'via'].includes(c.key)) : all;
}

export function subpartnerColumns(t: TFunction): ListColumn<PartnerSubpartnerDto>[] {
  return [
    { key: 'name', label: t('NAME'), render: (s) => s.name },
    { key: 'level', label: t('LEVEL'), numeric: true, render: (s) => s.level },
    { key: 'clients', label: t('CLIENTS'), numeric: true, render: (s) => s.clients },
    { key: 'lots', label: t('LOTS'), numeric: true, render: (s) => lots(s.lots) },
    { key: 'earned', label: t('EARNED YOU'), numeric: true, render: (s) => money(s.earnedYou) },
  ];
}

/** Commissions per deal and level; the admin view leaves out the instrument and lots. */
export function commissionColumns(t: TFunction, staff = false): ListColumn<PartnerCommissionDto>[] {
  const all: ListColumn<PartnerCommissionDto>[] = [
    { key: 'date', label: t('DATE'), render: (c) => dayjs(c.accruedAt).format('YYYY-MM-DD HH:mm') },
    {
      key: 'deal',
      label: t('DEAL'),
      render: (c) => (
        <>
          {c.kind === 'cpa' ? `${t('CPA')} #${c.depositId}` : `#${c.dealId}`}
          {c.kind === 'reversal' && (
            <Badge ml={6} size="xs" color="orange">
              {t('Reversed')}
            </Badge>
          )}
        </>
      ),
    },
    { key: 'client', label: t('CLIENT'), render: (c) => c.client },
    { key: 'instrument', label: t('INSTRUMENT'), render: (c) => c.instrument?.replace('_', '/') ?? '–' },
    { key: 'lots', label: t('LOTS'), numeric: true, render: (c) => lots(c.lots) },
    { key: 'level', label: t('LEVEL'), numeric: true, render: (c) => c.level },
    {
      key: 'amount',
      label: t('AMOUNT'),
      numeric: true,
      render: (c) => `${Number(c.amount).toFixed(2)} ${c.currency}`,
    },
  ];
  return staff ? all.filter((c) => c.key !== 'instrument' && c.key !== 'lots') : all;
}

export { money };
