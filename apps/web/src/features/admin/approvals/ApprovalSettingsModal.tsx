import { useEffect, useState } from 'react';
import { Button, Group, Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ApprovalSettingsRequest, ApprovalSettingsResponse } from '@platform/domain';
import { ApiError, apiGet, apiPut, errorMessage } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

const SETTINGS_URL = '/admin/approvals/settings';
const AMOUNTS = [
  ['withdrawal', 'Withdrawal payout above'],
  ['balanceAdjustment', 'Balance adjustment (add or subtract) above'],
  ['deposit', 'Deposit approval (bank, crypto) above'],
  ['trade', 'Trade edit or void moving more than'],
] as const;
type AmountKey = (typeof AMOUNTS)[number][0];

/** The four-eyes thresholds (admins): an empty amount is off; the switches always ask a second admin. */
export function ApprovalSettingsModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const current = useQuery({ queryKey: [SETTINGS_URL], queryFn: () => apiGet<ApprovalSettingsResponse>(SETTINGS_URL) });
  const [amounts, setAmounts] = useState<Record<AmountKey, string>>({
    withdrawal: '',
    balanceAdjustment: '',
    deposit: '',
    trade: '',
  });
  const [planChange, setPlanChange] = useState(false);
  const [gatewaySecrets, setGatewaySecrets] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const s = current.data;
    if (!s) return;
    setAmounts({
      withdrawal: s.withdrawal ?? '',
      balanceAdjustment: s.balanceAdjustment ?? '',
      deposit: s.deposit ?? '',
      trade: s.trade ?? '',
    });
    setPlanChange(s.planChange);
    setGatewaySecrets(s.gatewaySecrets);
  }, [current.data]);

  const save = async () => {
    setSaving(true);
    setErrors({});
    try {
      const body: ApprovalSettingsRequest = { ...amounts, planChange, gatewaySecrets };
      await apiPut(SETTINGS_URL, body);
      await client.invalidateQueries({ queryKey: [SETTINGS_URL] });
      toastSuccess(t('Thresholds saved'));
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.errors) setErrors(err.errors);
      toastError(errorMessage(err, t('Something went wrong')));
    } finally {
      setSaving(false);
    }
  };

  const currency = current.data?.siteCurrency ?? '';
  return (
    <Modal opened onClose={onClose} title={t('Four-eyes thresholds')}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('Amounts in the site currency ({{currency}}); empty = off, 0 = every one.', { currency })}
        </Text>
        {AMOUNTS.map(([key, label]) => (
          <TextInput
            key={key}
            label={t(label)}
            rightSection={<Text size="xs">{currency}</Text>}
            inputMode="decimal"
            value={amounts[key]}
            error={errors[key]}
            onChange={(e) => {
              const v = e.currentTarget.value;
              setAmounts((a) => ({ ...a, [key]: v }));
            }}
          />
        ))}
        <Switch
          label={t("A customer's pricing plan change needs a second admin")}
          checked={planChange}
          onChange={(e) => setPlanChange(e.currentTarget.checked)}
        />
        <Switch
          label={t('A gateway secret change needs a second admin')}
          checked={gatewaySecrets}
          onChange={(e) => setGatewaySecrets(e.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button loading={saving} onClick={() => void save()}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
