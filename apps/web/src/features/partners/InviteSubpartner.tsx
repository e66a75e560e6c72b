import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiPost, errorMessage } from '../../api/client.ts';
import { toastError, toastSuccess } from '../../ui/toast.ts';

/**
 * A partner brings a sub-partner of their own: the server opens the account under them on their plan and mails the
 * invitee a link that sets the password (POST /affiliate/partner/subpartners).
 */
export function InviteSubpartner() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const send = async () => {
    setBusy(true);
    setErrors({});
    try {
      const res = await apiPost<{ message: string }>('/affiliate/partner/subpartners', { fullName, email });
      toastSuccess(res.message);
      setFullName('');
      setEmail('');
      await client.invalidateQueries({ queryKey: ['partner', 'subpartners'] });
    } catch (err) {
      const fields = (err as { errors?: Record<string, string> }).errors;
      if (fields) setErrors(fields);
      toastError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={4}>{t('Invite a sub-partner')}</Title>
        <Text size="sm" c="dimmed">
          {t('They join under you on your plan and get an email to set their password; you earn on their clients.')}
        </Text>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label={t('Full name')}
            value={fullName}
            error={errors.fullName}
            maxLength={120}
            onChange={(e) => setFullName(e.currentTarget.value)}
          />
          <TextInput
            label={t('Email')}
            type="email"
            value={email}
            error={errors.email}
            maxLength={120}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <Button loading={busy} onClick={() => void send()}>
            {t('Send invitation')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
