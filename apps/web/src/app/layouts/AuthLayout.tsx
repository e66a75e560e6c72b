import { lazy, Suspense, useState } from 'react';
import { Box, Button, Group, Overlay } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { useBranding } from '../../api/hooks.ts';
import { DEFAULT_LANG } from '../../i18n/index.ts';
import { useBrandingHead } from '../useBrandingHead.ts';

const loadMenu = () => import('../../ui/shell/LanguageMenu.tsx');
const LanguageMenu = lazy(() => loadMenu().then((m) => ({ default: m.LanguageMenu })));

/**
 * The language button of the public pages. The menu and its popover code (about 24 KB compressed) load only when a
 * visitor reaches for the button, so the sign-in page stays light; a click opens the menu as soon as it has arrived.
 */
function LanguageSwitch() {
  const { i18n, t } = useTranslation();
  const [wanted, setWanted] = useState(false);
  const button = (
    <Button
      variant="subtle"
      color="gray"
      size="compact-sm"
      leftSection={<IconLanguage size={18} />}
      aria-label={t('Language')}
      onPointerEnter={() => void loadMenu()}
      onFocus={() => void loadMenu()}
      onClick={() => setWanted(true)}
    >
      {(i18n.language || DEFAULT_LANG).toUpperCase()}
    </Button>
  );
  if (!wanted) return button;
  return (
    <Suspense fallback={button}>
      <LanguageMenu defaultOpened />
    </Suspense>
  );
}

/** Public pages: the broker's background image, a language switcher, and the page's card centred. */
export function AuthLayout() {
  useBrandingHead();
  const { data } = useBranding();
  const background = data?.authBackground || '/auth-background.svg';
  return (
    <Box
      pos="relative"
      mih="100dvh"
      style={{ backgroundImage: `url("${background}")`, backgroundSize: 'cover', backgroundPosition: 'center' }}
    >
      <Overlay color="#000" backgroundOpacity={0.35} zIndex={0} fixed={false} />
      <Group justify="flex-end" p="md" pos="relative" style={{ zIndex: 1 }}>
        <LanguageSwitch />
      </Group>
      <Box pos="relative" px="md" pb="xl" style={{ zIndex: 1, display: 'flex', justifyContent: 'center' }}>
        <Outlet />
      </Box>
    </Box>
  );
}
