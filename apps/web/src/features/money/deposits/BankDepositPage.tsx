import { useState } from 'react';
import {
  Alert,
  Button,
  Center,
  FileInput,
  Image,
  Loader,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BankDepositRequest, GENERIC_ERROR, dec, formatMoney } from '@platform/domain';
import { apiPut, errorMessage } from '../../../api/client.ts';
import { useBranding, useCurrentUser } from '../../../api/hooks.ts';
import { schemaErrors } from '../../../ui/form.ts';
import { PageCard } from '../../../ui/PageCard.tsx';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import { useDepositDetail } from '../api.ts';

const PROOF_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'];
const ACCEPT = PROOF_TYPES.join(',');
const MAX_PROOF_BYTES = 5 * 1024 * 1024;

/** The proof's problem, if any: missing, not an image or PDF, or above 5 MB (the server checks the bytes again). */
export function proofError(file: File | null): string | undefined {
  if (!file) return 'Proof is required';
  if (file.type && !PROOF_TYPES.includes(file.type)) return 'Proof must be a JPEG, PNG, WebP or PDF file';
  if (file.size > MAX_PROOF_BYTES) return 'Proof must be at most 5 MB';
  return undefined;
}

/**
 * Bank Deposit (client-area §2): the broker's bank details to transfer to, and the "Sent From" form with the proof.
 * Whatever the outcome of the upload, the browser goes on to /deposits?status=pending.
 */
export function BankDepositPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const detail = useDepositDetail(id);
  const { data: branding } = useBranding();
  const { data: current } = useCurrentUser();
  const [values, setValues] = useState({ bank_name: '', account_number: '' });
  const [proof, setProof] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);

  if (detail.isPending)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  if (detail.isError || !detail.data.bank)
    return <Text c="red">{errorMessage(detail.error, t('Deposit not found.'))}</Text>;
  const d = detail.data;
  const bank = d.bank!;
  const accountName = current?.user.full_name ?? '';

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const found = schemaErrors(BankDepositRequest, { ...values, account_name: accountName });
    const badProof = proofError(proof);
    if (badProof) found.proof = badProof;
    setErrors(found);
    if (Object.keys(found).length) return;
    setSending(true);
    const form = new FormData();
    form.append('bank_name', values.bank_name);
    form.append('account_name', accountName);
    form.append('account_number', values.account_number);
    form.append('proof', proof!);
    try {
      const res = await apiPut<{ message: string }>(`/deposits/bank/${d.id}`, form);
      toastSuccess(res.message);
    } catch (err) {
      toastError(errorMessage(err, t(GENERIC_ERROR)));
    }
    // Success or not, the deposit is pending until staff confirm the transfer (client-area §2).
    void navigate(`/deposits?status=pending&amount=${dec(d.amount).toFixed(2)}`);
  };

  const rows: Array<[string, string]> = [
    [t('Bank Name'), bank.key1],
    [t('Account Holder Name'), bank.key2],
    [t('IBAN / Account Number'), bank.key3],
    [t('BIC / Swift Code'), bank.key4],
    [t('Country'), bank.key5],
    [t('Amount'), formatMoney(d.total, d.currency)],
  ];
  const error = (name: string) => (errors[name] ? t(errors[name]) : undefined);
  return (
    <PageCard
      title={t('Bank Deposit')}
      actions={branding?.appLogo ? <Image src={branding.appLogo} alt="" h={36} w="auto" /> : undefined}
    >
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
        <Stack gap="xs">
          <Text c="dimmed" size="sm">
            {t('Transfer the amount to this account, then tell us where it came from.')}
          </Text>
          <Table withTableBorder data-testid="bank-details">
            <Table.Tbody>
              {rows.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Td c="dimmed">{label}</Table.Td>
                  <Table.Td fw={600} style={{ wordBreak: 'break-all' }}>
                    {value || '-'}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
        {d.proof_sent || d.status !== 'pending' ? (
          <Alert color="blue" variant="light" title={t('Sent From')}>
            {t('The transfer details of this deposit were sent. Staff credit your wallet once the money arrives.')}
          </Alert>
        ) : (
          <form onSubmit={(e) => void submit(e)} noValidate>
            <Stack gap="sm">
              <Title order={4}>{t('Sent From')}</Title>
              <TextInput
                label={t('Bank Name')}
                required
                value={values.bank_name}
                onChange={(e) => setValues((s) => ({ ...s, bank_name: e.currentTarget.value }))}
                error={error('bank_name')}
              />
              <TextInput
                label={t('Account Name')}
                required
                value={accountName}
                readOnly
                error={error('account_name')}
              />
              <TextInput
                label={t('Account Number')}
                required
                value={values.account_number}
                onChange={(e) => setValues((s) => ({ ...s, account_number: e.currentTarget.value }))}
                error={error('account_number')}
              />
              <FileInput
                label={t('Proof')}
                required
                accept={ACCEPT}
                leftSection={<IconUpload size={16} />}
                placeholder={t('JPEG, PNG, WebP or PDF, up to 5 MB')}
                value={proof}
                onChange={setProof}
                error={error('proof')}
                clearable
              />
              <Button type="submit" loading={sending}>
                {t('Submit')}
              </Button>
            </Stack>
          </form>
        )}
      </SimpleGrid>
    </PageCard>
  );
}
