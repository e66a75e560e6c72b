import { Center, Loader, Stack } from '@mantine/core';
import { Logo } from './Logo.tsx';

/** Full-page wait shown while the current user loads (spec §2 "Loading"). */
export function LoadingScreen() {
  return (
    <Center h="100dvh" data-testid="loading-screen">
      <Stack align="center" gap="lg">
        <Logo height={48} />
        <Loader type="bars" />
      </Stack>
    </Center>
  );
}
