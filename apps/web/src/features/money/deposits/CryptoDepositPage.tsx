import { Button, Center, CopyButton, Group, Image, Loader, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { dec, formatMoney } from '@platform/domain';
import { errorMessage } from '../../../api/client.ts';
import { PageCard } from '../../../ui/PageCard.tsx';
import { useDepositDetail } from '../api.ts';

/**
 * Crypto deposit (client-area §2): the gateway, a QR image of the wallet address, the address to copy and the total
 * converted to the coin at the server's rate. Confirm leaves the deposit pending: staff credit it when the coins
 * arrive (docs/spec-deviations.md).
 */
export function CryptoDepositPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const detail = useDepositDetail(Number(useParams().id));
  if (detail.isPending)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  if (detail.isError || !detail.data.crypto)
    return <Text c="red">{errorMessage(detail.error, t('Deposit not found.'))}</Text>;
  const d = detail.data;
  const c = d.crypto!;
  return (
    <PageCard title={t('{{name}} Deposit', { name: t(d.gateway_name) })}>
      <Stack align="center" gap="md" maw={460} mx="auto">
        <Image src={c.qrCode} alt={t('QR code of the wallet address')} w={220} h={220} radius="md" bg="white" p={6} />
        <Text ta="center">
          {t('Send exactly')}{' '}
          <Text span fw={700} data-testid="crypto-amount">
            {dec(c.convertedAmount).toString()} {c.coin}
          </Text>{' '}
          ({formatMoney(d.total, d.currency)})
        </Text>
        <Text size="xs" c="dimmed">
          {t('Rate')}: 1 {c.coin} = {formatMoney(c.rate, d.currency)}
        </Text>
        <Group gap="xs" w="100%" wrap="nowrap">
          <TextInput
            label={t('Wallet Address')}
            value={c.walletCode}
            readOnly
            style={{ flex: 1 }}
            data-testid="crypto-wallet"
          />
          <CopyButton value={c.walletCode}>
            {({ copied, copy }) => (
              <Button
                mt={24}
                variant="light"
                onClick={copy}
                leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              >
                {copied ? t('Copied') : t('Copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Button fullWidth onClick={() => void navigate(`/deposits?status=pending&amount=${dec(d.amount).toFixed(2)}`)}>
          {t('Confirm')}
        </Button>
      </Stack>
    </PageCard>
  );
}
