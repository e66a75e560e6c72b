import { Group, PasswordInput, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  ROLE_NAMES,
  STAFF_ROLES,
  StaffUserCreateRequest,
  StaffUserUpdateRequest,
  type StaffUserDto,
} from '@platform/domain';
import { FormActions, useSaveItem } from '../../../ui/list-page/index.ts';

/** What the inputs hold; the role is a string because Select works with strings. */
export interface StaffUserFormValues {
  fullName: string;
  email: string;
  password: string;
  roleId: string;
  whitelist: string;
  isEmailVerified: boolean;
  isActive: boolean;
}

function initialValues(user: StaffUserDto | undefined, defaultRoleId: number): StaffUserFormValues {
  return {
    fullName: user?.full_name ?? '',
    email: user?.email ?? '',
    password: '',
    roleId: String(user?.role_id ?? defaultRoleId),
    whitelist: user?.whitelists.map((w) => w.ip_address).join(', ') ?? '',
    isEmailVerified: user?.is_email_verified ?? true,
    isActive: user?.is_active ?? true,
  };
}

/** The body of POST /admin/users and PUT /admin/users/{id}. */
const staffUserPayload = (values: StaffUserFormValues) => ({
  fullName: values.fullName,
  email: values.email,
  // On edit a blank password means "keep the current one", so it is not sent.
  password: values.password === '' ? undefined : values.password,
  roleId: Number(values.roleId),
  whitelist: values.whitelist,
  isEmailVerified: values.isEmailVerified,
  isActive: values.isActive,
});

export interface StaffUserFormProps {
  /** The user being edited; absent for add-new. */
  user?: StaffUserDto;
  /** Role preselected on add-new (1 on the Admin & Staffs screen). */
  defaultRoleId?: number;
  onSaved: () => void;
  onCancel?: () => void;
}

/** Add or edit a staff user (POST /admin/users, PUT /admin/users/{id}), validated by the shared schemas. */
export function StaffUserForm({ user, defaultRoleId = 1, onSaved, onCancel }: StaffUserFormProps) {
  const { t } = useTranslation();
  const form = useForm<StaffUserFormValues>({
    initialValues: initialValues(user, defaultRoleId),
    // The same zod schemas the server validates with, so both sides show the same messages.
    validate: schemaResolver(user ? StaffUserUpdateRequest : StaffUserCreateRequest, { sync: true }),
    // Errors appear once a field has been left (touched), and on submit for all fields.
    validateInputOnBlur: true,
  });

  /** Input props with the error text translated (schema messages are English keys). */
  const field = (name: keyof StaffUserFormValues, type?: 'checkbox') => {
    const props = form.getInputProps(name, type ? { type } : undefined);
    const error = form.errors[name];
    return { ...props, error: typeof error === 'string' ? t(error) : error };
  };

  const submit = useSaveItem(form, {
    url: '/admin/users',
    id: user?.id,
    body: staffUserPayload,
    savedMessage: t(user ? 'User updated successfully' : 'User added successfully'),
    onSaved,
  });

  const roleOptions = STAFF_ROLES.map((r) => ({ value: String(r), label: t(ROLE_NAMES[r]) }));

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('Full Name')} placeholder={t('Enter full name')} withAsterisk {...field('fullName')} />
          <TextInput label={t('Email')} placeholder={t('Enter email')} type="email" withAsterisk {...field('email')} />
          <PasswordInput
            label={t('Password')}
            placeholder={user ? t('Leave blank to keep the current password') : t('Enter password')}
            withAsterisk={!user}
            autoComplete="new-password"
            {...field('password')}
          />
          <Select label={t('Role')} data={roleOptions} allowDeselect={false} withAsterisk {...field('roleId')} />
        </SimpleGrid>
        <TextInput
          label={t('IP Whitelist')}
          placeholder="203.0.113.7, 198.51.100.0"
          description={t('Comma-separated IP addresses. Leave blank to allow any address.')}
          {...field('whitelist')}
        />
        <Group gap="xl">
          <Switch label={t('Email Verified')} {...field('isEmailVerified', 'checkbox')} />
          <Switch label={t('Active')} {...field('isActive', 'checkbox')} />
        </Group>
        <FormActions editing={Boolean(user)} submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
