import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { BalanceAdjustRequest, formatMoney, type BalanceDto } from '@platform/domain';
import { ApiError, apiPut, errorMessage } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import { toastIfSentForApproval } from '../approvals/pending.ts';

export interface BalanceAdjustTarget {
  balance: BalanceDto;
  type: 'add' | 'subtract';
}

/** Add to or subtract from one wallet (PUT /admin/balance/{id}) with a reason the ledger keeps; the page reloads after (spec §4). */
export function BalanceAdjustModal({
  target,
  onClose,
  onDone,
}: {
  target: BalanceAdjustTarget | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm({
    // The type sent is the button pressed; the form's own is only there so the shared schema validates the rest.
    initialValues: { amount: '', reason: '', type: 'add' as 'add' | 'subtract' },
    validate: schemaResolver(BalanceAdjustRequest, { sync: true }),
    validateInputOnBlur: true,
  });
  const field = (name: 'amount' | 'reason') => {
    const props = form.getInputProps(name);
    const error = form.errors[name];
    return { ...props, error: typeof error === 'string' ? t(error) : error };
  };
  const submit = async (v: { amount: string; reason: string }) => {
    if (!target) return;
    try {
      const res = await apiPut(`/admin/balance/${target.balance.id}`, {
        amount: v.amount,
        type: target.type,
        reason: v.reason,
      });
      if (!toastIfSentForApproval(t, res)) toastSuccess(t('Balance updated successfully'));
      onDone();
    } catch (err) {
      if (err instanceof ApiError && err.errors) form.setErrors(err.errors);
      toastError(errorMessage(err, t('Something went wrong')));
    }
  };
  const title = target
    ? `${target.type === 'add' ? t('Add Balance') : t('Subtract Balance')} · ${t(target.balance.mode === 'demo' ? 'Demo' : 'Real')} ${formatMoney(target.balance.balance, target.balance.currency)}`
    : '';
  return (
    <Modal
      opened={target !== null}
      onClose={() => {
        form.reset();
        onClose();
      }}
      title={title}
      size="lg"
    >
      <form onSubmit={form.onSubmit(() => submit(form.getValues()))} noValidate>
        <Stack gap="md">
          <TextInput label={t('Amount')} placeholder="0.00" inputMode="decimal" withAsterisk {...field('amount')} />
          <TextInput label={t('Reason')} placeholder={t('Why the balance changes')} withAsterisk {...field('reason')} />
          <Group justify="flex-end">
            <Button
              type="submit"
              color={target?.type === 'subtract' ? 'red' : undefined}
              loading={form.submitting}
              disabled={form.submitting}
            >
              {target?.type === 'subtract' ? t('Subtract') : t('Add')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
