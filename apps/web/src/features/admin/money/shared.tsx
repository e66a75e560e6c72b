import { useCallback } from 'react';
import { Anchor, Button, Group, Popover, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  GATEWAY_SPECS,
  GENERIC_ERROR,
  formatMoney,
  type FormattedBankDto,
  type GatewayKind,
  type MoneyRecordDto,
} from '@platform/domain';
import { errorMessage } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import { toastIfSentForApproval } from '../approvals/pending.ts';
import { ConfirmPopover, StatusChip } from '../../../ui/data-table/index.ts';

/** Review states of deposits, withdrawals and KYC documents (back-office spec §4): pending warning, approved success, declined danger. */
const STATUS_CHIPS: Record<string, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'yellow' },
  approved: { label: 'Approved', color: 'green' },
  declined: { label: 'Declined', color: 'red' },
};

export function ReviewStatusChip({ status }: { status: string }) {
  const { t } = useTranslation();
  const chip = STATUS_CHIPS[status] ?? { label: status, color: 'gray' };
  return <StatusChip label={t(chip.label)} color={chip.color} />;
}

/** The display name of a gateway kind as recorded on a deposit or withdrawal. */
export const gatewayLabel = (kind: string): string => GATEWAY_SPECS[kind as GatewayKind]?.name ?? kind;

/** An amount of the record's wallet, with its currency symbol. */
export const walletMoney = (record: MoneyRecordDto, amount: string): string =>
  formatMoney(amount, record.balance.currency);

/** The customer of a record, linking to their edit screen. */
export function UserEmailLink({ user }: { user: { id: number; email: string } }) {
  return (
    <Anchor component={Link} to={`/admin/customers/edit/${user.id}`} size="sm">
      {user.email}
    </Anchor>
  );
}

/** Bank name, account name and account number of a bank transfer, one per line. */
export function BankSummary({ bank }: { bank: FormattedBankDto }) {
  return (
    <Stack gap={0}>
      {[bank.bankName, bank.accountName, bank.accountNumber].filter(Boolean).map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed three-line address
        <Text key={i} size="sm">
          {line}
        </Text>
      ))}
    </Stack>
  );
}

/** A bank withdrawal's bank name with a Details popover of every bank field. */
export function BankDetails({ bank }: { bank: FormattedBankDto }) {
  const { t } = useTranslation();
  const rows: Array<[string, string]> = [
    [t('Bank Name'), bank.bankName],
    [t('A/C Name'), bank.accountName],
    [t('A/C No'), bank.accountNumber],
    [t('SWIFT'), bank.swiftCode],
    [t('Country'), bank.bankCountry],
  ];
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm">{bank.bankName}</Text>
      <Popover width={280} position="bottom-start" withArrow shadow="md">
        <Popover.Target>
          <Button size="compact-xs" variant="light">
            {t('Details')}
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack gap={4}>
            {rows.map(([label, value]) => (
              <Group key={label} justify="space-between" wrap="nowrap" gap="md">
                <Text size="sm" c="dimmed">
                  {label}
                </Text>
                <Text size="sm" ta="right" style={{ wordBreak: 'break-all' }}>
                  {value || '-'}
                </Text>
              </Group>
            ))}
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Group>
  );
}

/**
 * Runs an approve or decline call: the success text on success, the server's message (else the generic text) on
 * failure, then reloads the list.
 */
export function useReview(refresh: () => Promise<void>) {
  const { t } = useTranslation();
  return useCallback(
    async (request: () => Promise<unknown>, success: string): Promise<void> => {
      let res: unknown;
      try {
        res = await request();
      } catch (err) {
        toastError(errorMessage(err, t(GENERIC_ERROR)));
        return;
      }
      // Above a four-eyes threshold the action waits for a second person (202): say so, not "approved".
      if (!toastIfSentForApproval(t, res)) toastSuccess(success);
      await refresh();
    },
    [t, refresh],
  );
}

export interface ReviewActionsProps {
  approveMessage: string;
  declineMessage: string;
  /** Gets the override reason when `approveReasonLabel` asks for one. */
  onApprove: (reason: string) => Promise<unknown>;
  onDecline: (reason: string) => Promise<unknown>;
  /** Approving needs a reason (an override, e.g. a bank deposit with no proof yet): the label of its field. */
  approveReasonLabel?: string;
  /** Offer the Approve button (KYC hides it once a document is approved). */
  canApprove?: boolean;
  /** Ask for an optional Decline Reason with the decline confirmation. */
  withReason?: boolean;
}

/** Approve and Decline buttons, each behind its confirmation. */
export function ReviewActions({
  approveMessage,
  declineMessage,
  onApprove,
  onDecline,
  canApprove = true,
  withReason = false,
  approveReasonLabel,
}: ReviewActionsProps) {
  const { t } = useTranslation();
  const declineButton = (
    <Button size="compact-sm" color="red" variant="light">
      {t('Decline')}
    </Button>
  );
  return (
    <Group gap={6} wrap="nowrap">
      {canApprove && (
        <ConfirmPopover
          message={approveMessage}
          onConfirm={onApprove}
          reasonLabel={approveReasonLabel}
          reasonRequired={approveReasonLabel !== undefined}
        >
          <Button size="compact-sm" color="green" variant="light">
            {t('Approve')}
          </Button>
        </ConfirmPopover>
      )}
      <ConfirmPopover
        message={declineMessage}
        onConfirm={onDecline}
        reasonLabel={withReason ? t('Decline Reason') : undefined}
      >
        {declineButton}
      </ConfirmPopover>
    </Group>
  );
}
