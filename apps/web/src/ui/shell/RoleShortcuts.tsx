import { useState } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { IconArrowBackUp, IconShieldLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, ROLE_SHORTCUTS, type RoleId } from '@platform/domain';
import { apiPost } from '../../api/client.ts';
import { toastError } from '../toast.ts';

/** Browser flags set by the back office when a staff member signs in as a client ("Login as"). */
export const BACK_TO_ADMIN_KEY = 'backToAdmin';
export const RET_AGENT_KEY = 'retAgent';

function readFlag(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export interface RoleShortcutsProps {
  roleId: number;
  /** Stack the buttons full width (mobile drawer). */
  vertical?: boolean;
}

/** Top-bar shortcut into the back office for staff roles, plus "Back To Admin" while impersonating. */
export function RoleShortcuts({ roleId, vertical = false }: RoleShortcutsProps) {
  const { t } = useTranslation();
  const [leaving, setLeaving] = useState(false);
  const shortcut = ROLE_SHORTCUTS[roleId as RoleId];
  const backToAdmin = readFlag(BACK_TO_ADMIN_KEY) === 'enabled';

  async function goBackToAdmin() {
    setLeaving(true);
    try {
      localStorage.removeItem(BACK_TO_ADMIN_KEY);
      localStorage.removeItem(RET_AGENT_KEY);
      await apiPost('/authManager/back-to-admin');
      // A full navigation: the session changed user, so every cached query and the socket must start over.
      window.location.assign('/admin');
    } catch {
      setLeaving(false);
      toastError(t(GENERIC_ERROR));
    }
  }

  if (!shortcut && !backToAdmin) return null;
  const buttons = (
    <>
      {shortcut && (
        <Button
          component={Link}
          to={shortcut.to}
          size="compact-sm"
          variant="light"
          leftSection={<IconShieldLock size={16} />}
        >
          {t(shortcut.label)}
        </Button>
      )}
      {backToAdmin && (
        <Button
          size="compact-sm"
          color="orange"
          variant="light"
          loading={leaving}
          onClick={() => void goBackToAdmin()}
          leftSection={<IconArrowBackUp size={16} />}
        >
          {t('Back To Admin')}
        </Button>
      )}
    </>
  );
  return vertical ? (
    <Stack gap="xs">{buttons}</Stack>
  ) : (
    <Group gap="xs" wrap="nowrap">
      {buttons}
    </Group>
  );
}
