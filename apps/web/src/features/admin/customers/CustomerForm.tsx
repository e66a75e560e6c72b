import { Button, Group, PasswordInput, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  CustomerCreateRequest,
  CustomerUpdateRequest,
  UNASSIGNED,
  type CustomerDetailResponse,
  type MessageResponse,
  type PricingPlanListResponse,
  type StaffPickerResponse,
} from '@platform/domain';
import { ApiError, apiGet, apiPost, apiPut, errorMessage } from '../../../api/client.ts';
import { useCountries } from '../../../api/hooks.ts';
import { BirthDateInput, CountrySelect } from '../../../ui/PersonalInputs.tsx';
import { toastIfSentForApproval } from '../approvals/pending.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';

/** What the inputs hold: text as strings, pickers as id strings with '-2' for none. */
export interface CustomerFormValues {
  fullName: string;
  email: string;
  password: string;
  isEmailVerified: boolean;
  isActive: boolean;
  phone: string;
  birthDate: string;
  country: string;
  city: string;
  postalCode: string;
  address: string;
  managerId: string;
  pricingTableId: string;
}

const NONE = String(UNASSIGNED);

function initialValues(c: CustomerDetailResponse | undefined): CustomerFormValues {
  return {
    fullName: c?.full_name ?? '',
    email: c?.email ?? '',
    password: '',
    // Accounts staff create start verified (back-office spec: is_email_verified defaults to true).
    isEmailVerified: c?.is_email_verified ?? true,
    isActive: c?.is_active ?? true,
    phone: c?.profile.phone ?? '',
    birthDate: c?.profile.birth_date ?? '',
    country: c?.profile.country ?? '',
    city: c?.profile.city ?? '',
    postalCode: c?.profile.postal_code ?? '',
    address: c?.profile.address ?? '',
    managerId: c?.manager_id ? String(c.manager_id) : NONE,
    pricingTableId: c?.pricing_table_id ? String(c.pricing_table_id) : NONE,
  };
}

export interface CustomerFormProps {
  /** The customer being edited (Profile tab); absent for add-new. */
  customer?: CustomerDetailResponse;
  /** The viewer's role: a manager cannot assign the manager or the plan; role 6 only reads. */
  viewerRoleId?: number;
  onSaved: () => void;
  onCancel?: () => void;
}

/** Managers for the manager picker, plans for the plan picker (admins assign both). */
function usePickers(enabled: boolean) {
  const managers = useQuery({
    queryKey: ['customers', 'pickers', 2],
    queryFn: () => apiGet<StaffPickerResponse>('/admin/share/users/role/2'),
    enabled,
  });
  const plans = useQuery({
    queryKey: ['customers', 'plans'],
    queryFn: () => apiGet<PricingPlanListResponse>('/dashboard/pricing', { limit: 100 }),
    enabled,
  });
  return { managers: managers.data?.data ?? [], plans: plans.data?.data ?? [] };
}

/** Add a customer (POST /admin/customers) or edit one (PUT /admin/customers/{id}), validated by the shared schemas. */
export function CustomerForm({ customer, viewerRoleId = 1, onSaved, onCancel }: CustomerFormProps) {
  const { t } = useTranslation();
  const editing = customer !== undefined;
  const readOnly = customer?.read_only ?? false;
  const assigns = editing && viewerRoleId === 1 && !readOnly;
  const countries = useCountries();
  const { managers, plans } = usePickers(editing && !readOnly);
  const form = useForm<CustomerFormValues>({
    initialValues: initialValues(customer),
    validate: schemaResolver(editing ? CustomerUpdateRequest : CustomerCreateRequest, { sync: true }),
    validateInputOnBlur: true,
  });

  const field = (name: keyof CustomerFormValues, type?: 'checkbox') => {
    const props = form.getInputProps(name, type ? { type } : undefined);
    const error = form.errors[name];
    return { ...props, error: typeof error === 'string' ? t(error) : error, disabled: readOnly };
  };

  const submit = async (v: CustomerFormValues) => {
    const payload = {
      fullName: v.fullName,
      email: v.email,
      password: v.password === '' ? undefined : v.password,
      isEmailVerified: v.isEmailVerified,
      isActive: v.isActive,
      phone: v.phone,
      birthDate: v.birthDate,
      country: v.country,
      city: v.city,
      postalCode: v.postalCode,
      address: v.address,
      ...(assigns ? { managerId: Number(v.managerId), pricingTableId: Number(v.pricingTableId) } : {}),
    };
    try {
      const res = customer
        ? await apiPut<MessageResponse>(`/admin/customers/${customer.id}`, payload)
        : await apiPost<MessageResponse>('/admin/customers', payload);
      // A new plan may wait for a second admin (202): the rest is saved, the plan is not yet.
      if (!toastIfSentForApproval(t, res))
        toastSuccess(t(customer ? 'Customer updated successfully' : 'Customer added successfully'));
      onSaved();
    } catch (err) {
      if (err instanceof ApiError && err.errors) form.setErrors(err.errors);
      toastError(errorMessage(err, t('Something went wrong')));
    }
  };

  const managerOptions = [
    { value: NONE, label: t('Choose a manager'), disabled: true },
    ...managers.map((m) => ({ value: String(m.id), label: `${m.full_name} (${m.email})` })),
  ];
  const planOptions = [
    { value: NONE, label: t('Choose a plan'), disabled: true },
    ...plans.map((p) => ({ value: String(p.id), label: p.name })),
  ];

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('Full Name')} placeholder={t('Enter full name')} withAsterisk {...field('fullName')} />
          <TextInput label={t('Email')} placeholder={t('Enter email')} type="email" withAsterisk {...field('email')} />
          {!readOnly && (
            <PasswordInput
              label={t('Password')}
              placeholder={editing ? t('Leave blank to keep the current password') : t('Enter password')}
              withAsterisk={!editing}
              autoComplete="new-password"
              {...field('password')}
            />
          )}
          <TextInput label={t('Phone')} placeholder={t('Enter phone')} {...field('phone')} />
          <BirthDateInput
            {...field('birthDate')}
            value={form.values.birthDate}
            onChange={(v) => form.setFieldValue('birthDate', v)}
            required={false}
          />
          <CountrySelect
            countries={countries.data}
            {...field('country')}
            value={form.values.country}
            onChange={(v) => form.setFieldValue('country', v)}
            required={false}
          />
          <TextInput label={t('City')} {...field('city')} />
          <TextInput label={t('Postal Code')} {...field('postalCode')} />
          <TextInput label={t('Address')} {...field('address')} />
          {editing && !readOnly && (
            <>
              <Select
                label={t('Manager')}
                data={managerOptions}
                allowDeselect={false}
                {...field('managerId')}
                disabled={!assigns}
              />
              <Select
                label={t('Plan')}
                data={planOptions}
                allowDeselect={false}
                {...field('pricingTableId')}
                disabled={!assigns}
              />
            </>
          )}
        </SimpleGrid>
        <Group gap="xl">
          <Switch label={t('Email Verified')} {...field('isEmailVerified', 'checkbox')} />
          <Switch label={t('Active')} {...field('isActive', 'checkbox')} />
        </Group>
        {!readOnly && (
          <Group justify="flex-end" gap="sm">
            {onCancel && (
              <Button variant="default" onClick={onCancel}>
                {t('Cancel')}
              </Button>
            )}
            <Button type="submit" loading={form.submitting} disabled={form.submitting}>
              {editing ? t('Update') : t('Submit')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
