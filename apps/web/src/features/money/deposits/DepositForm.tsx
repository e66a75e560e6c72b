import { useState } from 'react';
import { Button, Group, Select, Stack, Table, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  Decimal,
  DepositRequest,
  GENERIC_ERROR,
  dec,
  formatMoney,
  type CurrentUserResponse,
  type DepositCreatedResponse,
  type GatewayOptionDto,
} from '@platform/domain';
import { apiPost, errorMessage } from '../../../api/client.ts';
import { queryKeys } from '../../../api/hooks.ts';
import { schemaErrors } from '../../../ui/form.ts';
import { toastError } from '../../../ui/toast.ts';
import { useGatewayOptions } from '../api.ts';
import { WalletSelect, defaultWalletId, realWallets } from '../WalletSelect.tsx';

/** Fee = the gateway's percent of the amount; total = amount + fee, to the cent (client-area §2, §9). */
export function depositFigures(amount: string, feePercent: string): { fee: string; total: string } | null {
  if (!/^\d+(\.\d+)?$/.test(amount.trim())) return null;
  const fee = dec(amount)
    .mul(feePercent || '0')
    .div(100)
    .toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return { fee: fee.toFixed(2), total: dec(amount).add(fee).toFixed(2) };
}

/** Posts the provider's hidden form (Perfect Money's SCI) the way a checkout button would. */
function postForm(action: string, fields: Record<string, string>) {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = action;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}

/** The Deposit tab: wallet, gateway, amount (once a gateway is chosen), fee and total, then on to the payment. */
export function DepositForm({ current }: { current: CurrentUserResponse }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const gateways = useGatewayOptions();
  const real = realWallets(current);
  const [values, setValues] = useState({ balance_id: defaultWalletId(current), gateway: '', amount: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const options: GatewayOptionDto[] = gateways.data?.data ?? [];
  const gateway = options.find((g) => g.value === values.gateway);
  const wallet = real.find((b) => String(b.id) === values.balance_id);
  const figures = gateway ? depositFigures(values.amount, gateway.fee) : null;

  const submit = useMutation({
    mutationFn: () =>
      apiPost<DepositCreatedResponse>('/deposits', {
        balance_id: Number(values.balance_id),
        amount: values.amount.trim(),
        gateway: values.gateway,
      }),
    onSuccess: (res) => {
      void client.invalidateQueries({ queryKey: queryKeys.currentUser });
      if (res.form) return postForm(res.form.action, res.form.fields);
      if (res.paymentLink.startsWith('/')) return void navigate(res.paymentLink);
      window.location.assign(res.paymentLink);
    },
    onError: (err) => toastError(errorMessage(err, t(GENERIC_ERROR))),
  });

  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    if (gateway?.group === 'external' && gateway.link) {
      window.open(gateway.link, '_blank', 'noopener,noreferrer');
      return;
    }
    const found = schemaErrors(DepositRequest, {
      balance_id: values.balance_id || undefined,
      amount: values.amount,
      gateway: values.gateway,
    });
    setErrors(found);
    if (Object.keys(found).length === 0) submit.mutate();
  };

  const error = (name: string) => (errors[name] ? t(errors[name]) : undefined);
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md" maw={560}>
        <WalletSelect
          wallets={real}
          value={values.balance_id}
          onChange={(v) => setValues((s) => ({ ...s, balance_id: v }))}
          error={error('balance_id')}
        />
        <Select
          label={t('Gateway')}
          required
          placeholder={t('Choose a payment method')}
          data={options.map((g) => ({ value: g.value, label: g.group === 'external' ? `${g.name} ↗` : t(g.name) }))}
          value={values.gateway || null}
          onChange={(v) => setValues((s) => ({ ...s, gateway: v ?? '' }))}
          error={error('gateway')}
          nothingFoundMessage={t('No payment method is available')}
          allowDeselect={false}
        />
        {gateway?.group === 'external' && gateway.custom_label && (
          <TextInput label={gateway.custom_label} value={gateway.custom_value ?? ''} readOnly />
        )}
        {gateway && gateway.group !== 'external' && (
          <>
            <TextInput
              label={`${t('Amount')} (${wallet?.currency ?? ''})`}
              required
              inputMode="decimal"
              value={values.amount}
              onChange={(e) => setValues((s) => ({ ...s, amount: e.currentTarget.value }))}
              error={error('amount')}
            />
            <Table withTableBorder style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="deposit-summary">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Td>
                    {t('Fee')} ({dec(gateway.fee).toString()}%)
                  </Table.Td>
                  <Table.Td ta="right">{figures ? formatMoney(figures.fee, wallet?.currency) : '-'}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td fw={700}>{t('Total')}</Table.Td>
                  <Table.Td ta="right" fw={700}>
                    {figures ? formatMoney(figures.total, wallet?.currency) : '-'}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </>
        )}
        <Group>
          <Button type="submit" loading={submit.isPending}>
            {gateway?.group === 'external' ? t('Open payment page') : t('Deposit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
