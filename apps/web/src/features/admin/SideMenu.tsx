import { NavLink, Stack, Text } from '@mantine/core';
import {
  IconAdjustments,
  IconAlarm,
  IconApi,
  IconArchive,
  IconArrowsExchange,
  IconBuildingBank,
  IconCash,
  IconChartCandle,
  IconCreditCard,
  IconDeviceDesktopAnalytics,
  IconFileCertificate,
  IconHeartHandshake,
  IconHistory,
  IconKey,
  IconLanguage,
  IconLayoutDashboard,
  IconListCheck,
  IconMail,
  IconPercentage,
  IconCalendarRepeat,
  IconReceipt2,
  IconServer,
  IconSettings,
  IconStack2,
  IconTag,
  IconTargetArrow,
  IconTicket,
  IconUserPlus,
  IconUserShield,
  IconUsers,
  IconUsersGroup,
  IconWallet,
  IconWorldWww,
  type Icon,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { menuForRole } from '@platform/domain';
import { isItemActive } from './screens.ts';

/** One icon per screen, keyed by route so the shared menu data stays free of UI concerns. */
const ITEM_ICONS: Record<string, Icon> = {
  '/admin': IconLayoutDashboard,
  '/admin/trades/all': IconChartCandle,
  '/admin/deposits': IconCash,
  '/admin/gateways': IconCreditCard,
  '/admin/externalPayments': IconWorldWww,
  '/admin/gateways/manual': IconBuildingBank,
  '/admin/withdraws/pending': IconWallet,
  '/admin/withdraws/history': IconHistory,
  '/admin/withdraws/settings': IconReceipt2,
  '/admin/customers/all': IconUsers,
  '/admin/users': IconUserShield,
  '/admin/mail': IconMail,
  '/affiliate': IconUserPlus,
  '/admin/crm/clients': IconUsersGroup,
  '/admin/crm/sales/all': IconTargetArrow,
  '/admin/crm/retention': IconHeartHandshake,
  '/admin/tasks': IconAlarm,
  '/admin/leads/live': IconUserPlus,
  '/admin/leads/manual': IconUserPlus,
  '/admin/leads/all': IconUserPlus,
  '/admin/crm/archived': IconArchive,
  '/admin/kyc': IconFileCertificate,
  '/admin/crm-config/sales-statuses': IconListCheck,
  '/admin/promo-code': IconTicket,
  '/admin/crm-config/teams': IconUsersGroup,
  '/affiliate/api': IconKey,
  '/admin/instruments/forex': IconArrowsExchange,
  '/admin/spreads': IconPercentage,
  '/admin/swaps': IconCalendarRepeat,
  '/admin/lots': IconStack2,
  '/admin/apis': IconApi,
  '/admin/pricing': IconTag,
  '/admin/settings': IconSettings,
  '/admin/languages': IconLanguage,
  '/admin/status/api': IconDeviceDesktopAnalytics,
  '/admin/status/server': IconServer,
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
      {sections.map((section) => (
        <div key={section.label}>
          <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4}>
            {t(section.label)}
          </Text>
          {section.items.map((item) => {
            const ItemIcon = ITEM_ICONS[item.to] ?? IconAdjustments;
            return (
              <NavLink
                key={item.to}
                component={Link}
                to={item.to}
                label={t(item.label)}
                leftSection={<ItemIcon size={18} stroke={1.6} />}
                active={isItemActive(item, pathname)}
                onClick={onNavigate}
                variant="light"
                style={{ borderRadius: 'var(--mantine-radius-sm)' }}
              />
            );
          })}
        </div>
      ))}
    </Stack>
  );
}
