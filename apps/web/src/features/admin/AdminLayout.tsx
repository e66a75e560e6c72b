import { useState } from 'react';
import {
  AppShell,
  Box,
  Burger,
  Button,
  Center,
  Group,
  ScrollArea,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure, useDocumentTitle } from '@mantine/hooks';
import { IconLogout, IconUserCircle } from '@tabler/icons-react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Role } from '@platform/domain';
import { useBranding, useCurrentUser, useLogout } from '../../api/hooks.ts';
import {
  LanguageMenu,
  LoadingScreen,
  Logo,
  NotificationsMenu,
  ProfileMenu,
  RoleShortcuts,
} from '../../ui/shell/index.ts';
import { PageTitleContext } from './pageTitle.tsx';
import { screenAccess, screenTitle } from './screens.ts';
import { SideMenu } from './SideMenu.tsx';
import { AccessDenied, PageNotFound } from './StatusViews.tsx';

/** The back-office shell: top bar, role-filtered side menu, page header and the screen (spec §1). */
export function AdminLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = useCurrentUser();
  const { data: branding } = useBranding();
  const logout = useLogout();
  const [navOpened, nav] = useDisclosure(false);
  const [titleOverride, setTitleOverride] = useState<string | null>(null);

  useDocumentTitle(branding?.appName ? `${branding.appName} - ${t('Admin')}` : t('Admin'));

  if (current.isPending) return <LoadingScreen />;
  if (current.isError)
    return (
      <Center h="100dvh">
        <Stack align="center">
          <Text>{t('Something went wrong')}</Text>
          <Button onClick={() => void current.refetch()}>{t('Try again')}</Button>
        </Stack>
      </Center>
    );
  const user = current.data?.user;
  if (!user) return <Navigate to="/" replace />;
  // Customers have no back office; their home is the client dashboard.
  if (user.role_id === Role.Customer) return <Navigate to="/dashboard" replace />;

  const access = screenAccess(user.role_id, pathname);
  const derived = screenTitle(pathname);
  const title = titleOverride ?? (derived.translate ? t(derived.title) : derived.title);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 264, breakpoint: 'sm', collapsed: { mobile: !navOpened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={navOpened}
              onClick={nav.toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t('Toggle navigation')}
            />
            <UnstyledButton component={Link} to="/" aria-label={t('Home')}>
              <Box visibleFrom="xs">
                <Logo withName />
              </Box>
              <Box hiddenFrom="xs">
                <Logo />
              </Box>
            </UnstyledButton>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Box visibleFrom="sm">
              <RoleShortcuts roleId={user.role_id} />
            </Box>
            <LanguageMenu />
            <NotificationsMenu userId={user.id} />
            <ProfileMenu
              fullName={user.full_name}
              email={user.email}
              items={[
                {
                  label: t('Profile'),
                  icon: <IconUserCircle size={16} />,
                  onClick: () => navigate(`/admin/customers/edit/${user.id}`),
                },
                {
                  label: t('Log Out'),
                  icon: <IconLogout size={16} />,
                  color: 'red',
                  dividerBefore: true,
                  onClick: () => logout.mutate(),
                },
              ]}
            />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <AppShell.Section hiddenFrom="sm" mb="sm">
          <RoleShortcuts roleId={user.role_id} vertical />
        </AppShell.Section>
        <AppShell.Section grow component={ScrollArea} type="scroll">
          <SideMenu roleId={user.role_id} pathname={pathname} onNavigate={nav.close} />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        {access === 'allowed' && title && (
          <Title order={2} mb="md" data-testid="page-title">
            {title}
          </Title>
        )}
        {access === 'allowed' ? (
          <PageTitleContext.Provider value={setTitleOverride}>
            <Outlet />
          </PageTitleContext.Provider>
        ) : access === 'denied' ? (
          <AccessDenied />
        ) : (
          <PageNotFound />
        )}
      </AppShell.Main>
    </AppShell>
  );
}
