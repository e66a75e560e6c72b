import { Group, Image, Text } from '@mantine/core';
import { useBranding } from '../../api/hooks.ts';

export interface LogoProps {
  /** Height of the image in pixels. */
  height?: number;
  /** Shows the app name beside the image. */
  withName?: boolean;
}

/** The broker's logo from branding (falls back to the shipped one) and, optionally, its name. */
export function Logo({ height = 32, withName = false }: LogoProps) {
  const { data } = useBranding();
  const name = data?.appName ?? '';
  return (
    <Group gap="xs" wrap="nowrap">
      <Image
        src={data?.appLogo || '/logo.svg'}
        alt={name || 'Logo'}
        h={height}
        w="auto"
        fit="contain"
        fallbackSrc="/logo.svg"
      />
      {withName && name && (
        <Text fw={700} size="lg" truncate>
          {name}
        </Text>
      )}
    </Group>
  );
}
