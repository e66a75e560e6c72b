import type { ReactNode } from 'react';
import { Group, Text } from '@mantine/core';
import type { Side } from '@platform/domain';

/**
 * The top of a trade's phone card (a position, a pending order, a history line): the instrument and its side (green
 * buy, red sell) over the time, and on the right what matters most (P/L or status).
 */
export function TradeCardHeader({
  instrument,
  side,
  sideLabel,
  time,
  ticket,
  aside,
}: {
  instrument: string;
  side: Side;
  sideLabel: string;
  time: string;
  /** The row's ticket (its id) and the test id of its text, before the time. */
  ticket?: { id: number; testId: string };
  aside: ReactNode;
}) {
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start">
      <div>
        <Group gap={6} wrap="nowrap">
          <Text fw={700}>{instrument}</Text>
          <Text size="sm" fw={700} c={side === 'buy' ? 'teal' : 'red'} style={{ whiteSpace: 'nowrap' }}>
            {sideLabel}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {ticket && <span data-testid={ticket.testId}>#{ticket.id}</span>}
          {ticket && ' · '}
          {time}
        </Text>
      </div>
      {aside}
    </Group>
  );
}
