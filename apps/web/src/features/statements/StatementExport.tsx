import { Button, Group, Tooltip } from '@mantine/core';
import { IconDownload, IconFileSpreadsheet, IconFileTypePdf } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export type StatementFormat = 'csv' | 'pdf' | 'xlsx';

export interface StatementRange {
  dateStart: string;
  dateEnd: string;
  walletId?: number | null;
}

/**
 * A statement download's address: the wallet, the dates that are set and the format (the CSV, the spec's export,
 * names none). `base` is the client's /api/statements/export or staff's /api/admin/customers/{id}/statement.
 */
export function statementUrl(
  { dateStart, dateEnd, walletId }: StatementRange,
  format: StatementFormat = 'csv',
  base = '/api/statements/export',
): string {
  const params = new URLSearchParams();
  if (walletId) params.set('walletId', String(walletId));
  if (dateStart) params.set('dateStart', dateStart);
  if (dateEnd) params.set('dateEnd', dateEnd);
  if (format !== 'csv') params.set('format', format);
  const qs = params.toString();
  return `${base}${qs ? `?${qs}` : ''}`;
}

/**
 * The account statement of the chosen wallet and period as PDF or XLSX (opening and closing balance, deals with swap
 * and commission, every movement), beside the CSV of closed trades (`csvLabel`: the client page's "Export").
 */
export function StatementExportButtons({
  range,
  base,
  csvLabel,
  disabled = false,
}: {
  range: StatementRange;
  base?: string;
  csvLabel?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const link = (format: StatementFormat) =>
    disabled ? {} : { component: 'a' as const, href: statementUrl(range, format, base), download: true };
  return (
    <Group gap="xs" wrap="nowrap">
      <Tooltip label={t('Closed trades as CSV')}>
        <Button {...link('csv')} disabled={disabled} variant="default" leftSection={<IconDownload size={16} />}>
          {csvLabel ?? t('CSV')}
        </Button>
      </Tooltip>
      <Tooltip label={t('Account statement as PDF')}>
        <Button {...link('pdf')} disabled={disabled} variant="default" leftSection={<IconFileTypePdf size={16} />}>
          {t('PDF')}
        </Button>
      </Tooltip>
      <Tooltip label={t('Account statement as XLSX')}>
        <Button {...link('xlsx')} disabled={disabled} variant="default" leftSection={<IconFileSpreadsheet size={16} />}>
          {t('XLSX')}
        </Button>
      </Tooltip>
    </Group>
  );
}
