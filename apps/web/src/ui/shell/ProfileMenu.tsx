import type { ReactNode } from 'react';
import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';

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
}

/** Avatar button with "Signed in as {email}" and the given items; client and back office pass their own items. */
export function ProfileMenu({ fullName, email, items }: ProfileMenuProps) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal shadow="md" width={260}>
      <Menu.Target>
        <UnstyledButton aria-label={t('Profile menu')}>
          <Avatar name={fullName} color="initials" radius="xl" size={34} />
        </UnstyledButton>
      </Menu.Target>
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
