import { Badge, Box, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { dec, formatMoney, type BalanceDto } from '@platform/domain';
import { useCurrentUser, useSwitchWallet } from '../../api/hooks.ts';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Group justify="space-between" gap="xs">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
    </Group>
  );
}

function WalletCard({ wallet, active }: { wallet: BalanceDto; active: boolean }) {
  const { t } = useTranslation();
  const switchWallet = useSwitchWallet();
  const available = dec(wallet.balance).minus(wallet.margin);
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      data-testid={`wallet-${wallet.id}`}
      style={active ? { borderColor: 'var(--mantine-color-blue-6)', boxShadow: '0 0 0 1px var(--mantine-color-blue-6)' } : undefined}
    >
      <Group justify="space-between" mb="md">
        <Group gap="xs">
          <Badge color={wallet.mode === 'demo' ? 'yellow' : 'teal'} variant="light">
            {wallet.mode === 'demo' ? t('Demo') : t('Real')}
          </Badge>
          <Text fw={700}>{wallet.currency}</Text>
        </Group>
        {active && (
          <Badge leftSection={<IconCircleCheck size={12} />} variant="filled">
            {t('Active')}
          </Badge>
        )}
      </Group>
      <Text size="xl" fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {formatMoney(wallet.balance, wallet.currency)}
      </Text>
      <Text size="xs" c="dimmed" mb="md">
        {t('Balance')}
      </Text>
      <Stack gap={6}>
        <Figure label={t('On Hold')} value={formatMoney(wallet.margin, wallet.currency)} />
        <Figure label={t('Available')} value={formatMoney(available, wallet.currency)} />
      </Stack>
      {!active && (
        <Button mt="lg" variant="light" fullWidth loading={switchWallet.isPending} onClick={() => switchWallet.mutate(wallet.id)}>
          {t('Make Active')}
        </Button>
      )}
    </Card>
  );
}

/** Interim dashboard: the user's wallets with the active one marked; the trading dashboard replaces it. */
export function DashboardPage() {
  const { t } = useTranslation();
  const { data } = useCurrentUser();
  const wallets = data?.user.balances ?? [];
  const activeId = data?.activeBalance?.id;
  return (
    <Box maw={1280} mx="auto">
      <Title order={2} mb={4}>
        {t('Welcome, {{name}}', { name: data?.user.full_name ?? '' })}
      </Title>
      <Text c="dimmed" mb="lg">
        {t('Your wallets')}
      </Text>
      {wallets.length === 0 ? (
        <Card withBorder radius="md" p="xl">
          <Text c="dimmed" ta="center">
            {t('You have no wallets yet.')}
          </Text>
        </Card>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {wallets.map((w) => (
            <WalletCard key={w.id} wallet={w} active={w.id === activeId} />
          ))}
        </SimpleGrid>
      )}
    </Box>
  );
}
