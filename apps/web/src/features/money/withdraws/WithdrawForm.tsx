import { useState } from 'react';
import { Button, Select, SimpleGrid, Stack, Table, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  Decimal,
  GENERIC_ERROR,
  WithdrawRequest,
  dec,
  formatMoney,
  type CurrentUserResponse,
  type WithdrawFeesResponse,
} from '@platform/domain';
import { apiPost, errorMessage } from '../../../api/client.ts';
import { queryKeys, useCountries } from '../../../api/hooks.ts';
import { schemaErrors } from '../../../ui/form.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import { useWithdrawFees } from '../api.ts';
import { WalletSelect, defaultWalletId, realWallets } from '../WalletSelect.tsx';

/** Withdraw fee = percentage/100 × amount + fixed; total = amount + fee, to the cent (client-area §9). */
export function withdrawFigures(
  amount: string,
  fees: WithdrawFeesResponse | undefined,
): { fee: string; total: string } | null {
  if (!fees || !/^\d+(\.\d+)?$/.test(amount.trim())) return null;
  const fee = dec(amount).mul(fees.percentage).div(100).add(fees.fixed).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return { fee: fee.toFixed(2), total: dec(amount).add(fee).toFixed(2) };
}

const EMPTY = { amount: '', bank_name: '', account_number: '', swift_code: '', bank_country: '' };

/** The Withdraw tab: a real wallet, the bank account (in the client's own name) and the Amount / Fee / Total summary. */
export function WithdrawForm({ current }: { current: CurrentUserResponse }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const fees = useWithdrawFees();
  const countries = useCountries();
  const real = realWallets(current);
  const [walletId, setWalletId] = useState(defaultWalletId(current));
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const wallet = real.find((b) => String(b.id) === walletId);
  const figures = withdrawFigures(values.amount, fees.data);
  const accountName = current.user.full_name;

  const submit = useMutation({
    mutationFn: () =>
      apiPost<{ message: string }>('/withdraws/bank', {
        ...values,
        amount: values.amount.trim(),
        account_name: accountName,
        balance_id: Number(walletId),
      }),
    onSuccess: (res) => {
      toastSuccess(res.message);
      setValues(EMPTY);
      setErrors({});
      void client.invalidateQueries({ queryKey: ['money', 'withdraws'] });
    },
    onError: (err) => toastError(errorMessage(err, t(GENERIC_ERROR))),
    // The wallet figures change either way (client-area §4).
    onSettled: () => void client.invalidateQueries({ queryKey: queryKeys.currentUser }),
  });

  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    const found = schemaErrors(WithdrawRequest, {
      ...values,
      account_name: accountName,
      balance_id: walletId || undefined,
    });
    setErrors(found);
    if (Object.keys(found).length === 0) submit.mutate();
  };
  const set = (name: keyof typeof EMPTY) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const v = e.currentTarget.value;
    setValues((s) => ({ ...s, [name]: v }));
  };
  const error = (name: string) => (errors[name] ? t(errors[name]) : undefined);
  const money = (v: string | undefined) => (v === undefined ? '-' : formatMoney(v, wallet?.currency));

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md" maw={720}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
          <WalletSelect wallets={real} value={walletId} onChange={setWalletId} error={error('balance_id')} />
          <TextInput
            label={`${t('Amount')} (${wallet?.currency ?? ''})`}
            required
            inputMode="decimal"
            value={values.amount}
            onChange={set('amount')}
            error={error('amount')}
          />
          <TextInput
            label={t('Bank Name')}
            required
            value={values.bank_name}
            onChange={set('bank_name')}
            error={error('bank_name')}
          />
          <TextInput label={t('Account Name')} required value={accountName} readOnly />
          <TextInput
            label={t('Account Number')}
            required
            value={values.account_number}
            onChange={set('account_number')}
            error={error('account_number')}
          />
          <TextInput
            label={t('Swift Code')}
            required
            value={values.swift_code}
            onChange={set('swift_code')}
            error={error('swift_code')}
          />
          <Select
            label={t('Bank Country')}
            required
            searchable
            data={countries.data ?? []}
            value={values.bank_country || null}
            onChange={(v) => setValues((s) => ({ ...s, bank_country: v ?? '' }))}
            error={error('bank_country')}
            nothingFoundMessage={t('No country found')}
          />
        </SimpleGrid>
        <Table withTableBorder maw={420} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="withdraw-summary">
          <Table.Tbody>
            <Table.Tr>
              <Table.Td>{t('Amount')}</Table.Td>
              <Table.Td ta="right">{figures ? money(dec(values.amount).toFixed(2)) : '-'}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>{t('Gateway Fee')}</Table.Td>
              <Table.Td ta="right">{figures ? money(figures.fee) : '-'}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td fw={700}>{t('Total')}</Table.Td>
              <Table.Td ta="right" fw={700}>
                {figures ? money(figures.total) : '-'}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        <div>
          <Button type="submit" loading={submit.isPending}>
            {t('Withdraw')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
