import type { ReactNode } from 'react';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useBranding } from '../../api/hooks.ts';
import { Logo } from '../../ui/shell/Logo.tsx';

export interface AuthCardProps {
  /** Already translated title. */
  title: string;
  subtitle?: ReactNode;
  /** Card width in pixels; sign-up is wider for its two columns. */
  width?: number;
  children: ReactNode;
}

/** Card of the public pages: logo and app name, a title, the form. */
export function AuthCard({ title, subtitle, width = 440, children }: AuthCardProps) {
  const { data } = useBranding();
  return (
    <Paper
      withBorder
      shadow="xl"
      radius="lg"
      p={{ base: 'lg', sm: 'xl' }}
      w="100%"
      maw={width}
      mt={{ base: 0, sm: 'xl' }}
      style={{ backgroundColor: 'rgba(26, 27, 30, 0.92)', backdropFilter: 'blur(6px)' }}
    >
      <Stack align="center" gap={6} mb="lg">
        <Logo height={48} />
        {data?.appName && (
          <Text fw={700} size="lg">
            {data.appName}
          </Text>
        )}
        <Title order={3} ta="center" mt="xs">
          {title}
        </Title>
        {subtitle && (
          <Text size="sm" c="dimmed" ta="center">
            {subtitle}
          </Text>
        )}
      </Stack>
      {children}
    </Paper>
  );
}
