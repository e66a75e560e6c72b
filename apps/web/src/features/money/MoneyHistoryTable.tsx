import { useState } from 'react';
import { Anchor, Button, Group, Pagination, Popover, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney, pageCount, type MoneyRecordDto } from '@platform/domain';
import { errorMessage } from '../../api/client.ts';
import { scrollBoxStyle, stickyMessageStyle } from '../../ui/data-table/cells.ts';
import { StatusChip } from '../../ui/data-table/index.ts';
import { HISTORY_PAGE_SIZE, useMoneyHistory } from './api.ts';

const STATUS_COLORS = { pending: 'yellow', approved: 'green', declined: 'red' } as const;

/** The pending / approved / declined chip (client-area §4: warning, success, danger). */
export function MoneyStatusChip({ status }: { status: MoneyRecordDto['status'] }) {
  const { t } = useTranslation();
  return (
    <StatusChip
      color={STATUS_COLORS[status]}
      label={t(status === 'pending' ? 'Pending' : status === 'approved' ? 'Approved' : 'Declined')}
    />
  );
}

function ReasonPopover({ reason }: { reason: string | null }) {
  const { t } = useTranslation();
  return (
    <Popover width={260} position="bottom" withArrow shadow="md">
      <Popover.Target>
        <Button size="compact-xs" variant="light" color="red">
          {t('Show Reason')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Text size="sm">{reason || t('No reason was given.')}</Text>
      </Popover.Dropdown>
    </Popover>
  );
}

/**
 * Deposit or withdrawal history of the caller (page size 15): date, gateway, amount, fee, total, balance after,
 * status and description; a declined withdrawal shows its reason, a bank withdrawal its account, and a bank deposit
 * still waiting for its transfer details links back to the form that takes them.
 */
export function MoneyHistoryTable({ kind }: { kind: 'deposits' | 'withdraws' }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const history = useMoneyHistory(kind, page);
  const rows = history.data?.data ?? [];
  const money = (r: MoneyRecordDto, v: string | null) => (v === null ? '-' : formatMoney(v, r.balance.currency));
  const description = (r: MoneyRecordDto) => {
    const b = r.formattedDescription;
    if (kind === 'withdraws' && b)
      return [b.bankName, b.accountName, b.accountNumber, b.swiftCode, b.bankCountry].filter(Boolean).join(', ');
    return r.description ?? '-';
  };
  const headers = [
    t('Date'),
    t('Gateway'),
    t('Amount'),
    t('Fee'),
    t('Total'),
    t('Balance After'),
    t('Status'),
    t('Description'),
  ];
  return (
    <>
      <Table.ScrollContainer minWidth={860} style={scrollBoxStyle}>
        <Table
          striped
          verticalSpacing="sm"
          style={{ fontVariantNumeric: 'tabular-nums' }}
          data-testid={`${kind}-history`}
        >
          <Table.Thead>
            <Table.Tr>
              {headers.map((h) => (
                <Table.Th key={h} style={{ whiteSpace: 'nowrap' }}>
                  {h}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={headers.length}>
                  <Text ta="center" c={history.isError ? 'red' : 'dimmed'} py="lg" style={stickyMessageStyle}>
                    {history.isPending
                      ? t('Loading...')
                      : history.isError
                        ? errorMessage(history.error, t('Something went wrong'))
                        : t('No data found')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              rows.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.created_at)}</Table.Td>
                  <Table.Td>{r.gateway}</Table.Td>
                  <Table.Td ta="right">{money(r, r.amount)}</Table.Td>
                  <Table.Td ta="right">{money(r, r.fee)}</Table.Td>
                  <Table.Td ta="right">{money(r, r.total)}</Table.Td>
                  <Table.Td ta="right">{money(r, r.balance_after)}</Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <MoneyStatusChip status={r.status} />
                      {r.status === 'declined' && kind === 'withdraws' && <ReasonPopover reason={r.decline_reason} />}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    {kind === 'deposits' && r.awaiting_proof ? (
                      // A bank deposit waiting for its transfer details: back to the form that takes them and the proof.
                      <Anchor component={Link} to={`/deposits/bank/${r.id}`} size="sm">
                        {t('Add transfer details')}
                      </Anchor>
                    ) : (
                      description(r)
                    )}
                  </Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between" mt="md">
        <Text size="sm" c="dimmed">
          {t('Total')}: {history.data?.meta.total ?? 0}
        </Text>
        <Pagination
          size="sm"
          total={pageCount(history.data?.meta.total, history.data?.meta.per_page ?? HISTORY_PAGE_SIZE)}
          value={page}
          onChange={setPage}
        />
      </Group>
    </>
  );
}
