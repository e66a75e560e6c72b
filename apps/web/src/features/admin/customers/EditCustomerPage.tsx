import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Divider,
  Grid,
  Group,
  Loader,
  Stack,
  Tabs,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconAlarm, IconLogin, IconMinus, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatMoney, type CustomerDetailResponse, type LoginAsResponse } from '@platform/domain';
import { ApiError, apiGet, apiPost, errorMessage } from '../../../api/client.ts';
import { useCurrentUser } from '../../../api/hooks.ts';
import { StatusChip } from '../../../ui/data-table/index.ts';
import { BACK_TO_ADMIN_KEY } from '../../../ui/shell/RoleShortcuts.tsx';
import { toastError } from '../../../ui/toast.ts';
import { PageNotFound } from '../StatusViews.tsx';
import { ScheduleTaskModal, type TaskTarget } from '../crm/SalesFloorControls.tsx';
import { BalanceAdjustModal, type BalanceAdjustTarget } from './BalanceAdjustModal.tsx';
import { CustomerDepositsTab, CustomerTradesTab, CustomerWithdrawsTab } from './CustomerHistoryTabs.tsx';
import { CustomerForm } from './CustomerForm.tsx';
import { CustomerStatementTab } from './CustomerStatementTab.tsx';
import { StopoutReports } from '../../statements/StopoutReports.tsx';
import { OwnProfileForm } from './OwnProfileForm.tsx';
import { TrackingTab } from './TrackingTab.tsx';
import { SessionsCards } from '../../account/SessionsCards.tsx';
import { TwoFactorReset } from '../users/TwoFactorReset.tsx';
import { goTo, reloadPage } from './navigation.ts';
import { usePresence } from './usePresence.ts';

export const customerDetailKey = (id: number) => ['customers', 'detail', id] as const;

/** Login as: the server swaps the session for the customer's; the flag lets the client area offer "Back To Admin". */
function LoginAsButton({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const loginAs = async () => {
    setBusy(true);
    try {
      const res = await apiPost<LoginAsResponse>(`/admin/customers/login-as/${customerId}`);
      localStorage.setItem(BACK_TO_ADMIN_KEY, 'enabled');
      // A full navigation: the session now belongs to the customer, so caches and the socket start over.
      goTo(res.redirect || '/');
    } catch (err) {
      setBusy(false);
      toastError(errorMessage(err, t('Something went wrong')));
    }
  };
  return (
    <Button fullWidth leftSection={<IconLogin size={16} />} loading={busy} onClick={() => void loginAs()}>
      {t('Login as')}
    </Button>
  );
}

/** Staff who work customers schedule a call-back or task on one, as on a lead's row (the same dialog). */
const SCHEDULERS = [1, 2, 5, 6];

function SummaryPanel({
  customer,
  viewerRoleId,
  onAdjust,
  onSchedule,
}: {
  customer: CustomerDetailResponse;
  viewerRoleId: number;
  onAdjust: (t: BalanceAdjustTarget) => void;
  onSchedule: (t: TaskTarget) => void;
}) {
  const { t } = useTranslation();
  const online = usePresence();
  const isCustomer = customer.role_id === 3;
  const canAdjust = isCustomer && !customer.read_only;
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={4} style={{ wordBreak: 'break-word' }}>
          {customer.full_name}
        </Title>
        <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
          {customer.email}
        </Text>
        <Group gap="xs">
          {customer.is_active ? (
            <StatusChip label={t('Active')} color="green" />
          ) : (
            <StatusChip label={t('Inactive')} color="red" />
          )}
          {isCustomer && (
            <Badge variant="dot" color={online(customer.id, customer.online) ? 'green' : 'red'}>
              {online(customer.id, customer.online) ? t('Online') : t('Offline')}
            </Badge>
          )}
        </Group>
        {/* Retention agents read contacts masked; the client area would show them whole (docs/decisions.md). */}
        {isCustomer && viewerRoleId !== 6 && <LoginAsButton customerId={customer.id} />}
        {isCustomer && SCHEDULERS.includes(viewerRoleId) && (
          <Button
            fullWidth
            variant="light"
            color="grape"
            leftSection={<IconAlarm size={16} />}
            onClick={() => onSchedule({ customerId: customer.id, name: customer.full_name })}
          >
            {t('Schedule call-back or task')}
          </Button>
        )}
        {customer.balances.length > 0 && <Divider label={t('Balances')} labelPosition="left" />}
        {customer.balances.map((b) => (
          <Group key={b.id} justify="space-between" wrap="nowrap" data-testid={`balance-${b.id}`}>
            <Stack gap={0}>
              <Group gap={6}>
                <Badge size="sm" color={b.mode === 'demo' ? 'yellow' : 'blue'}>
                  {t(b.mode === 'demo' ? 'Demo' : 'Real')}
                </Badge>
                <Text size="sm">{b.currency}</Text>
              </Group>
              <Text fw={600}>{formatMoney(b.balance, b.currency)}</Text>
            </Stack>
            {canAdjust && (
              <Group gap={4} wrap="nowrap">
                <Tooltip label={t('Add Balance')}>
                  <ActionIcon
                    variant="light"
                    color="green"
                    aria-label={t('Add Balance')}
                    onClick={() => onAdjust({ balance: b, type: 'add' })}
                  >
                    <IconPlus size={16} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('Subtract Balance')}>
                  <ActionIcon
                    variant="light"
                    color="red"
                    aria-label={t('Subtract Balance')}
                    onClick={() => onAdjust({ balance: b, type: 'subtract' })}
                  >
                    <IconMinus size={16} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            )}
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

/** Edit Customer (/admin/customers/edit/{id}): summary with balances on the left, tabs on the right (back-office spec §2). */
export function EditCustomerPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const viewer = useCurrentUser().data?.user;
  const viewerRoleId = viewer?.role_id ?? 0;
  const valid = Number.isInteger(id) && id > 0;
  const detail = useQuery({
    queryKey: customerDetailKey(id),
    queryFn: () => apiGet<CustomerDetailResponse>(`/admin/share/users/${id}`),
    enabled: valid,
    retry: false,
  });
  const [adjusting, setAdjusting] = useState<BalanceAdjustTarget | null>(null);
  const [scheduling, setScheduling] = useState<TaskTarget | null>(null);

  if (!valid || (detail.error instanceof ApiError && detail.error.status === 404)) return <PageNotFound />;
  if (detail.isError) return <Alert color="red">{t('Something went wrong')}</Alert>;
  if (!detail.data)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  const customer = detail.data;
  const isCustomer = customer.role_id === 3;
  // The header's Profile item opens this page on the staff member's own account: their name and the way to Security.
  const ownStaffProfile = !isCustomer && viewer?.id === customer.id;
  // Money and trade histories are for admins and managers; retention agents see the profile and tracking.
  const money = isCustomer && (viewerRoleId === 1 || viewerRoleId === 2);
  // Sessions and sign-in history: the staff who work the customer (not affiliates).
  const signIns = isCustomer && [1, 2, 5, 6].includes(viewerRoleId);

  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, md: 4, lg: 3 }}>
        <SummaryPanel
          customer={customer}
          viewerRoleId={viewerRoleId}
          onAdjust={setAdjusting}
          onSchedule={setScheduling}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8, lg: 9 }}>
        <Card withBorder padding="lg">
          <Tabs defaultValue="profile" keepMounted={false}>
            <Tabs.List mb="md">
              <Tabs.Tab value="profile">{t('Profile')}</Tabs.Tab>
              {money && <Tabs.Tab value="trades">{t('Trades')}</Tabs.Tab>}
              {money && <Tabs.Tab value="deposits">{t('Deposits')}</Tabs.Tab>}
              {money && <Tabs.Tab value="withdraws">{t('Withdraws')}</Tabs.Tab>}
              {money && <Tabs.Tab value="statement">{t('Statement')}</Tabs.Tab>}
              {money && <Tabs.Tab value="stopouts">{t('Stop-outs')}</Tabs.Tab>}
              {isCustomer && <Tabs.Tab value="tracking">{t('Tracking')}</Tabs.Tab>}
              {signIns && <Tabs.Tab value="security">{t('Security')}</Tabs.Tab>}
            </Tabs.List>
            <Tabs.Panel value="profile">
              {ownStaffProfile ? (
                <OwnProfileForm
                  fullName={customer.full_name}
                  email={customer.email}
                  onSaved={() => void detail.refetch()}
                />
              ) : (
                <CustomerForm
                  key={customer.id}
                  customer={customer}
                  viewerRoleId={viewerRoleId}
                  onSaved={() => void detail.refetch()}
                />
              )}
            </Tabs.Panel>
            {money && (
              <>
                <Tabs.Panel value="trades">
                  <CustomerTradesTab userId={customer.id} />
                </Tabs.Panel>
                <Tabs.Panel value="deposits">
                  <CustomerDepositsTab userId={customer.id} />
                </Tabs.Panel>
                <Tabs.Panel value="withdraws">
                  <CustomerWithdrawsTab userId={customer.id} />
                </Tabs.Panel>
                <Tabs.Panel value="statement">
                  <CustomerStatementTab customerId={customer.id} wallets={customer.balances} />
                </Tabs.Panel>
                <Tabs.Panel value="stopouts">
                  <StopoutReports url={`/admin/customers/${customer.id}/stopouts`} />
                </Tabs.Panel>
              </>
            )}
            {isCustomer && (
              <Tabs.Panel value="tracking">
                <TrackingTab userId={customer.id} />
              </Tabs.Panel>
            )}
            {signIns && (
              <Tabs.Panel value="security">
                <Stack gap="md">
                  {/* Lost phone and recovery codes: admins turn the customer's two-factor sign-in off. */}
                  {viewerRoleId === 1 && <TwoFactorReset userId={customer.id} />}
                  <SessionsCards base={`/admin/customers/${customer.id}`} own={false} />
                </Stack>
              </Tabs.Panel>
            )}
          </Tabs>
        </Card>
      </Grid.Col>
      <BalanceAdjustModal target={adjusting} onClose={() => setAdjusting(null)} onDone={reloadPage} />
      <ScheduleTaskModal target={scheduling} onClose={() => setScheduling(null)} />
    </Grid>
  );
}
