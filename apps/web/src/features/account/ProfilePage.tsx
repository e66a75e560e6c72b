import { Button, Group, SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, maskEmail, maskPhone, ProfileUpdateRequest, type CurrentUserResponse } from '@platform/domain';
import { apiPut, errorMessage } from '../../api/client.ts';
import { queryKeys, useCountries, useCurrentUser } from '../../api/hooks.ts';
import { applyServerErrors, fieldProps, schemaErrors } from '../../ui/form.ts';
import { PageCard } from '../../ui/PageCard.tsx';
import { BirthDateInput, CountrySelect, type PersonalValues } from '../../ui/PersonalInputs.tsx';
import { RET_AGENT_KEY } from '../../ui/shell/RoleShortcuts.tsx';
import { toastError, toastSuccess } from '../../ui/toast.ts';

export type ProfileValues = PersonalValues;

/** Retail-agent mode (a staff member acting for the client) hides the phone number (spec §5, §6). */
export function isRetailAgentMode(): boolean {
  try {
    return Boolean(localStorage.getItem(RET_AGENT_KEY));
  } catch {
    return false;
  }
}

function initialValues(user: CurrentUserResponse['user'], retAgent: boolean): ProfileValues {
  const p = user.profile;
  return {
    fullName: user.full_name,
    phone: retAgent ? maskPhone(p.phone) : (p.phone ?? ''),
    birthDate: p.birth_date ?? '',
    country: p.country ?? '',
    city: p.city ?? '',
    address: p.address ?? '',
    postalCode: p.postal_code ?? '',
  };
}

function ProfileForm({ user }: { user: CurrentUserResponse['user'] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const countries = useCountries();
  const retAgent = isRetailAgentMode();
  const form = useForm<ProfileValues>({
    mode: 'controlled',
    initialValues: initialValues(user, retAgent),
    // In retail-agent mode the phone is neither validated nor sent: it only holds the masked text.
    validate: (values) => schemaErrors(ProfileUpdateRequest, retAgent ? { ...values, phone: undefined } : values),
    validateInputOnBlur: true,
  });

  const save = useMutation({
    mutationFn: (values: ProfileValues) => {
      const { phone, ...rest } = values;
      return apiPut<{ message: string }>('/profile/me', retAgent ? rest : { ...rest, phone });
    },
    onSuccess: (res) => {
      toastSuccess(res.message);
      void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
    },
    onError: (err) => {
      applyServerErrors(form, err);
      toastError(errorMessage(err, t(GENERIC_ERROR)));
    },
  });

  const f = (name: keyof ProfileValues & string) => fieldProps(form, name, t);
  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
        <TextInput label={t('Full Name')} required {...f('fullName')} />
        <TextInput label={t('Email')} value={maskEmail(user.email)} readOnly disabled data-testid="profile-email" />
        <TextInput
          type="tel"
          label={t('Phone')}
          required={!retAgent}
          disabled={retAgent}
          data-testid="profile-phone"
          {...f('phone')}
        />
        <BirthDateInput
          {...f('birthDate')}
          value={form.values.birthDate}
          onChange={(v) => form.setFieldValue('birthDate', v)}
        />
        <CountrySelect
          {...f('country')}
          countries={countries.data}
          value={form.values.country}
          onChange={(v) => form.setFieldValue('country', v)}
        />
        <TextInput label={t('City')} required {...f('city')} />
        <TextInput label={t('Address')} required {...f('address')} />
        <TextInput label={t('Postal Code')} required {...f('postalCode')} />
      </SimpleGrid>
      <Group justify="flex-end" mt="xl">
        <Button type="submit" loading={save.isPending}>
          {t('Save Changes')}
        </Button>
      </Group>
    </form>
  );
}

/** Personal information (spec §2 Profile): email shown masked and read-only. */
export function ProfilePage() {
  const { t } = useTranslation();
  const { data } = useCurrentUser();
  return (
    <PageCard title={t('Personal Information')} description={t('Keep your personal details up to date.')}>
      {data && <ProfileForm key={data.user.id} user={data.user} />}
    </PageCard>
  );
}
