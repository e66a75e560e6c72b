import { useState } from 'react';
import { Button, Checkbox, Code, CopyButton, Group, Image, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TwoFactorSetupResponse } from '@platform/domain';

/** The QR image to scan and the secret to type in by hand (same layout as the crypto deposit's wallet address). */
export function TwoFactorSetupInfo({ setup }: { setup: TwoFactorSetupResponse }) {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="sm">
      <Text size="sm" ta="center">
        {t('Scan this QR code with your authenticator app, or type the key in by hand.')}
      </Text>
      <Image
        src={setup.qrDataUrl}
        alt={t('QR code for your authenticator app')}
        w={200}
        h={200}
        radius="md"
        bg="white"
        p={6}
      />
      <Group gap="xs" w="100%" wrap="nowrap" align="flex-end">
        <TextInput
          label={t('Setup key')}
          value={setup.secret}
          readOnly
          style={{ flex: 1 }}
          data-testid="two-factor-secret"
        />
        <CopyButton value={setup.secret}>
          {({ copied, copy }) => (
            <Button
              variant="light"
              onClick={copy}
              leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            >
              {copied ? t('Copied') : t('Copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

/** A 6-digit code input: digits only, numeric keyboard on phones, one-time-code autofill. */
export function CodeInput(props: {
  value: string;
  onChange: (v: string) => void;
  label?: string;
  autoFocus?: boolean;
  error?: string;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={props.label ?? t('Authentication code')}
      placeholder="123456"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      required
      autoFocus={props.autoFocus}
      value={props.value}
      error={props.error}
      onChange={(e) => props.onChange(e.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
      data-testid="two-factor-code"
    />
  );
}

/** The recovery codes, shown once: the user confirms having saved them before going on. */
export function RecoveryCodesPanel({
  codes,
  onDone,
  doneLabel,
}: {
  codes: string[];
  onDone: () => void;
  doneLabel?: string;
}) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(false);
  return (
    <Stack gap="md" data-testid="recovery-codes">
      <Text fw={600}>{t('Your recovery codes')}</Text>
      <Text size="sm" c="dimmed">
        {t('Each code signs you in once if you lose your phone. Keep them somewhere safe: they are not shown again.')}
      </Text>
      <SimpleGrid cols={2} spacing="xs">
        {codes.map((c) => (
          <Code key={c} ta="center" fz="sm">
            {c}
          </Code>
        ))}
      </SimpleGrid>
      <CopyButton value={codes.join('\n')}>
        {({ copied, copy }) => (
          <Button
            variant="light"
            onClick={copy}
            leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          >
            {copied ? t('Copied') : t('Copy codes')}
          </Button>
        )}
      </CopyButton>
      <Checkbox
        label={t('I have saved these codes')}
        checked={saved}
        onChange={(e) => setSaved(e.currentTarget.checked)}
      />
      <Button disabled={!saved} onClick={onDone}>
        {doneLabel ?? t('Continue')}
      </Button>
    </Stack>
  );
}
