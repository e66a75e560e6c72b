import { useState } from 'react';
import { Group, Select, Stack, Text } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import type { CustomerDetailResponse } from '@platform/domain';
import { StatementExportButtons } from '../../statements/StatementExport.tsx';

type Wallet = CustomerDetailResponse['balances'][number];

/**
 * Statement tab of a customer (admins, and managers for their customers): the account statement of one of the
 * customer's wallets over a period, as the client downloads it (PDF or XLSX), or the CSV of its closed trades.
 */
export function CustomerStatementTab({ customerId, wallets }: { customerId: number; wallets: Wallet[] }) {
  const { t } = useTranslation();
  const [walletId, setWalletId] = useState<number | null>(
    wallets.find((w) => w.mode === 'real')?.id ?? wallets[0]?.id ?? null,
  );
  const [dateStart, setDateStart] = useState('');
  const [dateEnd, setDateEnd] = useState('');
  const reversed = Boolean(dateStart && dateEnd && dateStart > dateEnd);
  const name = (w: Wallet) =>
    t('{{currency}} {{mode}} wallet #{{id}}', {
      currency: w.currency,
      mode: w.mode === 'real' ? t('Real') : t('Demo'),
      id: w.id,
    });
  if (wallets.length === 0) return <Text c="dimmed">{t('This customer has no wallet.')}</Text>;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t(
          'The account statement of a wallet for a period: opening and closing balance, deals with swap and commission, deposits, withdrawals and every other movement. Leave the dates empty for the whole history.',
        )}
      </Text>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label={t('Wallet')}
          data={wallets.map((w) => ({ value: String(w.id), label: name(w) }))}
          value={walletId === null ? null : String(walletId)}
          onChange={(v) => v && setWalletId(Number(v))}
          allowDeselect={false}
          w={{ base: '100%', xs: 240 }}
          data-testid="customer-statement-wallet"
        />
        <DateInput
          label={t('From')}
          valueFormat="YYYY-MM-DD"
          placeholder="YYYY-MM-DD"
          clearable
          value={dateStart || null}
          onChange={(v) => setDateStart(v ?? '')}
          w={160}
        />
        <DateInput
          label={t('To')}
          valueFormat="YYYY-MM-DD"
          placeholder="YYYY-MM-DD"
          clearable
          value={dateEnd || null}
          onChange={(v) => setDateEnd(v ?? '')}
          error={reversed ? t('The start date must not be after the end date.') : undefined}
          w={160}
        />
        <StatementExportButtons
          range={{ dateStart, dateEnd, walletId }}
          base={`/api/admin/customers/${customerId}/statement`}
          disabled={reversed}
        />
      </Group>
    </Stack>
  );
}
