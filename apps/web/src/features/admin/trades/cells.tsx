import { Anchor, Badge, Group, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import type { DataTableColumn } from '../../../ui/data-table/index.ts';
import { formatCharge } from '../../trading/figures.ts';

/** A stored decimal without its trailing zeros (1.10000000 → 1.1), as the trades lists show figures. */
export const plain = (v: string | null) => (v === null ? null : String(Number(v)));

/**
 * A swap or commission so far, in the wallet's currency to the cent as the client's statement shows it (a swap is
 * booked to 8 places: the exact figure is on hover); red when paid, green when earned, plain when none.
 */
export function chargeCell(v: string) {
  if (Number(v) === 0) return plain(v);
  // The terminal's own reading of a charge (no currency: the list's figures carry none).
  const { text, color } = formatCharge(v, '');
  return (
    <Text span size="sm" c={color} ff="monospace" title={plain(v) ?? undefined}>
      {text}
    </Text>
  );
}

/** What the USER column reads of a trade or a pending order: its customer and the wallet's mode. */
interface CustomerRow {
  user: { id: number; email: string };
  balance: { mode: string };
}

/**
 * The USER column of the trades lists: the wallet chip (Demo or Real) first and the customer's email, linked to the
 * customer, cut to what is left, so neither spills into the next column.
 */
export function customerColumn<T extends CustomerRow>(t: TFunction): DataTableColumn<T> {
  return {
    key: 'user.email',
    label: t('USER'),
    // Narrower than other cut cells: the email's start says whose it is, and the trade's figures need the room.
    truncate: 150,
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
  };
}
