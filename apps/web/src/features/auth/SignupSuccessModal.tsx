import { Button, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

export interface SignupSuccessModalProps {
  result: { emailVerification: boolean; email: string } | null;
}

/** "Account Created": the verification-email text when verification is on, else the plain success text. */
export function SignupSuccessModal({ result }: SignupSuccessModalProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const close = () => navigate('/');
  return (
    <Modal opened={result !== null} onClose={close} title={t('Account Created')} centered>
      <Stack align="center" gap="md">
        <ThemeIcon size={56} radius="xl" color="teal" variant="light">
          <IconCircleCheck size={32} />
        </ThemeIcon>
        <Text ta="center">
          {result?.emailVerification
            ? t(
                'We have sent a verification email to {{email}}. Please click the link in the email to verify your account.',
                {
                  email: result.email,
                },
              )
            : t('Your account has been created successfully.')}
        </Text>
        <Button fullWidth onClick={close}>
          {t('Sign In')}
        </Button>
      </Stack>
    </Modal>
  );
}
