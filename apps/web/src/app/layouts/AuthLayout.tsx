import { Box, Group, Overlay } from '@mantine/core';
import { Outlet } from 'react-router';
import { useBranding } from '../../api/hooks.ts';
import { LanguageSwitch } from '../../ui/shell/LanguageSwitch.tsx';
import { useBrandingHead } from '../useBrandingHead.ts';

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
