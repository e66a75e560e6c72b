import { Button, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  LeadCreateRequest,
  LeadUpdateRequest,
  UNASSIGNED,
  type LeadItem,
  type MessageResponse,
  type StaffPickerResponse,
} from '@platform/domain';
import { ApiError, apiGet, apiPost, apiPut, errorMessage } from '../../../api/client.ts';
import { useCountries } from '../../../api/hooks.ts';
import { CountrySelect } from '../../../ui/PersonalInputs.tsx';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import { useSalesStatuses } from './useSalesStatuses.ts';

export interface LeadFormValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  country: string;
  city: string;
  funnelLink: string;
  reference: string;
  leadSourceId: string;
  leadStatus: string;
  managerId: string;
  agentId: string;
  retId: string;
}

const NONE = String(UNASSIGNED);
const idOf = (id: number | null) => (id ? String(id) : NONE);

function initialValues(lead: LeadItem | undefined, defaultStatus: string): LeadFormValues {
  return {
    firstName: lead?.first_name ?? '',
    lastName: lead?.last_name ?? '',
    email: lead?.email ?? '',
    phone: lead?.phone ?? '',
    country: lead?.country ?? '',
    city: lead?.city ?? '',
    funnelLink: lead?.funnel_link ?? '',
    reference: lead?.reference ?? '',
    leadSourceId: lead?.lead_source_id ?? '',
    leadStatus: lead?.lead_status ?? defaultStatus,
    managerId: idOf(lead?.manager_id ?? null),
    agentId: idOf(lead?.agent_id ?? null),
    retId: idOf(lead?.ret_id ?? null),
  };
}

/** Users of one role for the manager (2), agent (5) and retention-agent (6) pickers. */
export function useStaffOfRole(roleId: 2 | 5 | 6, enabled: boolean) {
  return (
    useQuery({
      queryKey: ['crm', 'staff', roleId],
      queryFn: () => apiGet<StaffPickerResponse>(`/admin/share/users/role/${roleId}`),
      enabled,
      staleTime: 60_000,
    }).data?.data ?? []
  );
}

export interface LeadFormProps {
  /** The lead being edited; absent for Add Lead. */
  lead?: LeadItem;
  viewerRoleId: number;
  onSaved: () => void;
  onCancel: () => void;
}

/**
 * Edit Lead (PUT /admin/leads/{id}) and Add Lead (POST /admin/leads), back-office §2. Agents (5, 6) get the plain
 * text inputs only; the manager picker is for admins. While the lead's contacts reach the viewer masked, email and
 * phone are shown read-only and left out of the request (the server keeps them).
 */
export function LeadForm({ lead, viewerRoleId, onSaved, onCancel }: LeadFormProps) {
  const { t } = useTranslation();
  const editing = lead !== undefined;
  const agent = viewerRoleId === 5 || viewerRoleId === 6;
  const pickers = editing && !agent;
  const statuses = useSalesStatuses();
  const defaultStatus = statuses.find((s) => s.is_default)?.status ?? 'New';
  const countries = useCountries();
  const managers = useStaffOfRole(2, pickers && viewerRoleId === 1);
  const agents = useStaffOfRole(5, pickers);
  const retAgents = useStaffOfRole(6, pickers);
  const masked = lead?.masked ?? false;
  const resolve = schemaResolver(editing ? LeadUpdateRequest : LeadCreateRequest, { sync: true });
  const form = useForm<LeadFormValues>({
    initialValues: initialValues(lead, defaultStatus),
    // Masked contacts are not sent, so they are not checked either.
    validate: (values) => resolve(masked ? { ...values, email: '', phone: '' } : values),
    validateInputOnBlur: true,
  });

  const field = (name: keyof LeadFormValues) => {
    const props = form.getInputProps(name);
    const error = form.errors[name];
    return { ...props, error: typeof error === 'string' ? t(error) : error };
  };

  const submit = async (v: LeadFormValues) => {
    const base = {
      firstName: v.firstName,
      lastName: v.lastName,
      country: v.country,
      city: v.city,
      funnelLink: v.funnelLink,
      reference: v.reference,
      ...(masked ? {} : { email: v.email, phone: v.phone }),
    };
    try {
      if (lead) {
        await apiPut<MessageResponse>(`/admin/leads/${lead.id}`, {
          ...base,
          leadSourceId: v.leadSourceId,
          ...(agent ? {} : { leadStatus: v.leadStatus, agentId: Number(v.agentId), retId: Number(v.retId) }),
          ...(viewerRoleId === 1 ? { managerId: Number(v.managerId) } : {}),
        });
      } else {
        await apiPost<MessageResponse>('/admin/leads', { ...base, leadStatus: v.leadStatus });
      }
      toastSuccess(t(lead ? 'Lead edited successfully' : 'Leads added successfully'));
      onSaved();
    } catch (err) {
      if (err instanceof ApiError && err.errors) form.setErrors(err.errors);
      toastError(errorMessage(err, t('Something went wrong')));
    }
  };

  const options = (list: { id: number; full_name: string; email: string }[], none: string) => [
    { value: NONE, label: t(none) },
    ...list.map((u) => ({ value: String(u.id), label: `${u.full_name} (${u.email})` })),
  ];
  const statusOptions = statuses.map((s) => ({ value: s.status, label: s.status }));

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('First Name')} withAsterisk {...field('firstName')} />
          <TextInput label={t('Last Name')} {...field('lastName')} />
          <TextInput label={t('Email')} type={masked ? 'text' : 'email'} {...field('email')} readOnly={masked} />
          <TextInput label={t('Phone')} {...field('phone')} readOnly={masked} />
          <CountrySelect
            countries={countries.data}
            {...field('country')}
            value={form.values.country}
            onChange={(v) => form.setFieldValue('country', v)}
            required={false}
          />
          <TextInput label={t('City')} {...field('city')} />
          <TextInput label={t('Funnel Link')} {...field('funnelLink')} />
          <TextInput label={t('Aff. Reference')} {...field('reference')} />
          {editing && <TextInput label={t('Lead Source ID')} {...field('leadSourceId')} />}
          {!agent && (
            <Select label={t('Lead Status')} data={statusOptions} allowDeselect={false} {...field('leadStatus')} />
          )}
          {pickers && viewerRoleId === 1 && (
            <Select
              label={t('Manager')}
              data={options(managers, 'Unassigned')}
              allowDeselect={false}
              {...field('managerId')}
            />
          )}
          {pickers && (
            <Select
              label={t('Agent')}
              data={options(agents, 'Unassigned')}
              allowDeselect={false}
              {...field('agentId')}
            />
          )}
          {pickers && (
            <Select
              label={t('Retention Agent')}
              data={options(retAgents, 'Unassigned')}
              allowDeselect={false}
              {...field('retId')}
            />
          )}
        </SimpleGrid>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={form.submitting} disabled={form.submitting}>
            {editing ? t('Update') : t('Submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
