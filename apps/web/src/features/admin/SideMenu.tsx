import { NavLink, Stack, Text } from '@mantine/core';
import {
  IconAdjustments,
  IconArrowsExchange,
  IconHeadset,
  IconLayoutDashboard,
  IconServer,
  IconSettings,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { menuForRole } from '@platform/domain';
import { isItemActive } from './screens.ts';

const SECTION_ICONS: Record<string, Icon> = {
  Dashboard: IconLayoutDashboard,
  Transactions: IconArrowsExchange,
  'User Management': IconUsers,
  'Leads Management': IconHeadset,
  'Trade Management': IconAdjustments,
  'Site Management': IconSettings,
  'Server Management': IconServer,
};

export interface SideMenuProps {
  roleId: number;
  pathname: string;
  /** Called after an item is chosen, so the mobile drawer can close. */
  onNavigate?: () => void;
}

/** The side menu of the back office, built from the shared permission map for the user's role. */
export function SideMenu({ roleId, pathname, onNavigate }: SideMenuProps) {
  const { t } = useTranslation();
  const sections = menuForRole(roleId);
  return (
    <Stack gap="md" component="nav" aria-label={t('Main menu')}>
      {sections.map((section) => {
        const SectionIcon = SECTION_ICONS[section.label] ?? IconLayoutDashboard;
        return (
          <div key={section.label}>
            <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4}>
              {t(section.label)}
            </Text>
            {section.items.map((item) => (
              <NavLink
                key={item.to}
                component={Link}
                to={item.to}
                label={t(item.label)}
                leftSection={<SectionIcon size={16} stroke={1.6} />}
                active={isItemActive(item, pathname)}
                onClick={onNavigate}
                variant="light"
                style={{ borderRadius: 'var(--mantine-radius-sm)' }}
              />
            ))}
          </div>
        );
      })}
    </Stack>
  );
}
