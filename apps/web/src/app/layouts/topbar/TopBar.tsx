import { lazy } from 'react';
import { Burger, Button, Divider, Drawer, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCash, IconCreditCard, IconLogout, IconUser, IconWallet } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CurrentUserResponse } from '@platform/domain';
import { useLogout } from '../../../api/hooks.ts';
import { LanguageSwitch } from '../../../ui/shell/LanguageSwitch.tsx';
import { Logo } from '../../../ui/shell/Logo.tsx';
import { NotificationsMenu } from '../../../ui/shell/NotificationsMenu.tsx';
import { MenuOnUse } from '../../../ui/shell/MenuOnUse.tsx';
import { profileTarget } from '../../../ui/shell/menuTargets.tsx';
import type { ProfileMenuItem } from '../../../ui/shell/ProfileMenu.tsx';
import { RoleShortcuts } from '../../../ui/shell/RoleShortcuts.tsx';
import { LiveTopBarStats } from '../../../features/trading/LiveTopBarStats.tsx';
import { WalletSwitcher } from './WalletSwitcher.tsx';

// The top bar's menus load when first reached for (see MenuOnUse): the dashboard's first load carries only their buttons.
const loadProfileMenu = () => import('../../../ui/shell/ProfileMenu.tsx');
const ProfileMenu = lazy(() => loadProfileMenu().then((m) => ({ default: m.ProfileMenu })));

export interface TopBarProps {
  current: CurrentUserResponse;
}

/**
 * The signed-in top bar (spec §2). Wide screens show everything in one row; below `lg` the wallet
 * figures, switcher, Deposit and role shortcuts move into a drawer opened by the burger.
 */
export function TopBar({ current }: TopBarProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const logout = useLogout();
  const [drawerOpen, drawer] = useDisclosure(false);
  const { user, activeBalance } = current;

  const profileItems: ProfileMenuItem[] = [
    { label: t('Profile'), icon: <IconUser size={16} />, onClick: () => navigate('/profile') },
    { label: t('Deposits'), icon: <IconCreditCard size={16} />, onClick: () => navigate('/deposits') },
    { label: t('Withdraws'), icon: <IconCash size={16} />, onClick: () => navigate('/withdraws') },
    {
      label: t('Log Out'),
      icon: <IconLogout size={16} />,
      color: 'red',
      dividerBefore: true,
      onClick: () => logout.mutate(),
    },
  ];

  const deposit = (fullWidth: boolean) => (
    <Button
      component={Link}
      to="/deposits"
      size="compact-sm"
      color="teal"
      leftSection={<IconWallet size={16} />}
      fullWidth={fullWidth}
    >
      {t('Deposit')}
    </Button>
  );

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="md">
      <Group gap="lg" wrap="nowrap" style={{ minWidth: 0 }}>
        <Burger opened={drawerOpen} onClick={drawer.toggle} hiddenFrom="lg" size="sm" aria-label={t('Open menu')} />
        <Link to="/dashboard" aria-label={t('Dashboard')} style={{ display: 'flex' }}>
          <Logo height={32} />
        </Link>
        {activeBalance && (
          <Group visibleFrom="lg" wrap="nowrap">
            <LiveTopBarStats
              balance={activeBalance.balance}
              margin={activeBalance.margin}
              currency={activeBalance.currency}
            />
          </Group>
        )}
      </Group>
      <Group gap="sm" wrap="nowrap">
        <Group gap="sm" wrap="nowrap" visibleFrom="lg">
          <RoleShortcuts roleId={user.role_id} />
          {activeBalance && <WalletSwitcher balances={user.balances} active={activeBalance} />}
          {deposit(false)}
        </Group>
        <NotificationsMenu userId={user.id} />
        <LanguageSwitch />
        <MenuOnUse
          load={loadProfileMenu}
          target={(on) => profileTarget(user.full_name, t('Profile menu'), on)}
          menu={(target) => (
            <ProfileMenu
              fullName={user.full_name}
              email={user.email}
              items={profileItems}
              defaultOpened
              target={target}
            />
          )}
        />
      </Group>
      <Drawer
        opened={drawerOpen}
        onClose={drawer.close}
        title={<Logo height={28} withName />}
        size="xs"
        hiddenFrom="lg"
      >
        <Stack gap="md" onClick={(e) => (e.target as HTMLElement).closest('a') && drawer.close()}>
          {activeBalance && (
            <>
              <WalletSwitcher balances={user.balances} active={activeBalance} fullWidth />
              <LiveTopBarStats
                balance={activeBalance.balance}
                margin={activeBalance.margin}
                currency={activeBalance.currency}
                layout="grid"
              />
              <Divider />
            </>
          )}
          {deposit(true)}
          <RoleShortcuts roleId={user.role_id} vertical />
        </Stack>
      </Drawer>
    </Group>
  );
}
