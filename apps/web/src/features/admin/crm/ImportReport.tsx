import { Alert, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LeadCsvReport } from '@platform/domain';

const MATCHES: Record<Exclude<LeadCsvReport['duplicates'][number]['matches'], 'known'>, string> = {
  lead: 'an existing lead',
  customer: 'an existing customer',
  file: 'an earlier row of this file',
};

/** What an upload did: counts, then the rows left out and why (the server lists up to 1,000 of each). */
export function ImportReport({ report }: { report: LeadCsvReport }) {
  const { t } = useTranslation();
  const rows = [
    ...report.rejected.map((r) => ({ row: r.row, what: t('Rejected'), why: r.reasons.join('; ') })),
    ...report.duplicates.map((d) => ({
      row: d.row,
      what: t('Duplicate'),
      // 'known': a record the uploader may not see; the server does not say whose.
      why:
        d.matches === 'known'
          ? `${d.field} ${t('already known')}`
          : `${d.field} ${t('matches')} ${t(MATCHES[d.matches])}`,
    })),
  ].sort((a, b) => a.row - b.row);
  return (
    <Stack gap="xs" data-testid="csv-report">
      <Alert
        color={report.accepted > 0 ? 'green' : 'yellow'}
        title={`${report.accepted} / ${report.total} ${t('leads imported')}`}
      >
        {report.rejectedCount} {t('rejected')}, {report.duplicateCount} {t('duplicates')}
        {report.ignoredColumns.length > 0 && (
          <Text size="sm" mt={4}>
            {t('Columns ignored')}: {report.ignoredColumns.join(', ')}
          </Text>
        )}
      </Alert>
      {rows.length > 0 && (
        <ScrollArea.Autosize mah={260}>
          <Table striped withTableBorder fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Row')}</Table.Th>
                <Table.Th>{t('Result')}</Table.Th>
                <Table.Th>{t('Reason')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={`${r.what}-${r.row}`}>
                  <Table.Td>{r.row}</Table.Td>
                  <Table.Td>{r.what}</Table.Td>
                  <Table.Td>{r.why}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}
