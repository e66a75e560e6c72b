import type { ReactNode } from 'react';
import { Avatar, Box, Button, Collapse, Grid, NavLink, Paper, Stack, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import {
  IconCash,
  IconCreditCard,
  IconFileText,
  IconId,
  IconLayoutSidebar,
  IconLock,
  IconStar,
  IconUser,
} from '@tabler/icons-react';
import { Link, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useBranding, useCurrentUser } from '../../api/hooks.ts';

interface SidebarLink {
  to: string;
  label: string;
  icon: ReactNode;
}

/** Account pages (spec §2 "Account layout"): sidebar with the user and links, page on the right. */
export function AccountLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const { data: current } = useCurrentUser();
  const { data: branding } = useBranding();
  const [shown, sidebar] = useDisclosure(false);
  // The sidebar is always open from md up; below that the "Show Sidebar" toggle opens it.
  const desktop = useMediaQuery('(min-width: 62em)', true, { getInitialValueInEffect: false });

  const links: SidebarLink[] = [
    { to: '/deposits', label: t('Deposits'), icon: <IconCreditCard size={18} /> },
    { to: '/withdraws', label: t('Withdraws'), icon: <IconCash size={18} /> },
    ...(branding?.pricingPlan === 'off' ? [] : [{ to: '/pricing', label: t('My Plan'), icon: <IconStar size={18} /> }]),
    { to: '/profile', label: t('Personal Information'), icon: <IconUser size={18} /> },
    { to: '/kyc', label: t('KYC'), icon: <IconId size={18} /> },
    { to: '/security', label: t('Security'), icon: <IconLock size={18} /> },
    { to: '/statements', label: t('Statements'), icon: <IconFileText size={18} /> },
  ];
  const user = current?.user;

  return (
    <Grid gap="md" maw={1280} mx="auto">
      <Grid.Col span={{ base: 12, md: 3 }}>
        <Button
          hiddenFrom="md"
          variant="default"
          fullWidth
          mb="sm"
          leftSection={<IconLayoutSidebar size={16} />}
          onClick={sidebar.toggle}
          aria-expanded={shown}
        >
          {shown ? t('Hide Sidebar') : t('Show Sidebar')}
        </Button>
        <Collapse expanded={desktop || shown}>
          <Paper withBorder p="md" radius="md">
            <Stack align="center" gap={4} mb="md">
              <Avatar name={user?.full_name} color="initials" size={72} radius="xl" />
              <Text fw={600} mt="xs" ta="center">
                {user?.full_name}
              </Text>
              <Text size="sm" c="dimmed" ta="center" style={{ wordBreak: 'break-all' }}>
                {user?.email}
              </Text>
            </Stack>
            <Box component="nav" aria-label={t('Account')}>
              {links.map((l) => (
                <NavLink
                  key={l.to}
                  component={Link}
                  to={l.to}
                  label={l.label}
                  leftSection={l.icon}
                  active={location.pathname === l.to || location.pathname.startsWith(`${l.to}/`)}
                  variant="light"
                  onClick={sidebar.close}
                  style={{ borderRadius: 'var(--mantine-radius-md)' }}
                />
              ))}
            </Box>
          </Paper>
        </Collapse>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 9 }}>
        <Outlet />
      </Grid.Col>
    </Grid>
  );
}
