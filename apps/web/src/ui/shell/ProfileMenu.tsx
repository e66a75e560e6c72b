import type { ReactElement, ReactNode } from 'react';
import { Menu, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { profileTarget } from './menuTargets.tsx';

export interface ProfileMenuItem {
  /** Already translated label. */
  label: string;
  icon?: ReactNode;
  onClick: () => void;
  color?: string;
  /** Draws a divider above the item. */
  dividerBefore?: boolean;
}

export interface ProfileMenuProps {
  fullName: string;
  email: string;
  items: ProfileMenuItem[];
  defaultOpened?: boolean;
  /** The avatar button (the top bar draws the same one before this menu has loaded). */
  target?: ReactElement;
}

/** Avatar button with "Signed in as {email}" and the given items; client and back office pass their own items. */
export function ProfileMenu({ fullName, email, items, defaultOpened = false, target }: ProfileMenuProps) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal shadow="md" width={260} defaultOpened={defaultOpened}>
      <Menu.Target>{target ?? profileTarget(fullName, t('Profile menu'))}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {t('Signed in as {{email}}', { email })}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        {items.map((item) => [
          item.dividerBefore ? <Menu.Divider key={`${item.label}-divider`} /> : null,
          <Menu.Item key={item.label} leftSection={item.icon} color={item.color} onClick={item.onClick}>
            {item.label}
          </Menu.Item>,
        ])}
      </Menu.Dropdown>
    </Menu>
  );
}
