import { Group, Paper, PasswordInput, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  GATEWAY_SPECS,
  GENERIC_ERROR,
  GatewayUpdateRequest,
  SECRET_MASK,
  type AdminGatewayDto,
  type GatewayField,
  type GatewaySpec,
  type MessageResponse,
} from '@platform/domain';
import { apiPut, errorMessage } from '../../../../api/client.ts';
import { applyServerErrors, fieldProps, schemaErrors, type FieldErrors } from '../../../../ui/form.ts';
import { toastError, toastSuccess } from '../../../../ui/toast.ts';
import { toastIfSentForApproval } from '../../approvals/pending.ts';
import { StatusChip } from '../../../../ui/data-table/index.ts';
import { UpdateButton } from '../../trade-management/settingsForm.tsx';
import { ImageUpload } from '../ImageUpload.tsx';

type KeyName = GatewayField['key'];

export interface GatewayFormValues {
  key1: string;
  key2: string;
  key3: string;
  key4: string;
  key5: string;
  fee: string;
  isActive: boolean;
  file: File | null;
  [field: string]: unknown;
}

const KEY_NAMES: readonly KeyName[] = ['key1', 'key2', 'key3', 'key4', 'key5'];

function initialValues(gateway: AdminGatewayDto): GatewayFormValues {
  const keys = Object.fromEntries(KEY_NAMES.map((k) => [k, gateway[k] ?? ''])) as Record<KeyName, string>;
  return { ...keys, fee: gateway.fee, isActive: gateway.is_active, file: null };
}

/**
 * The card's checks: the shared schema for lengths and the fee, and, for a gateway being switched on, every field
 * its provider needs (the bank card is offered once filled in, so its fields may be cleared to withdraw it).
 */
export function gatewayErrors(spec: GatewaySpec, values: GatewayFormValues): FieldErrors {
  const own = new Set<string>([...spec.fields.map((f) => f.key), ...(spec.hasFee ? ['fee'] : [])]);
  const input = Object.fromEntries(spec.fields.map((f) => [f.key, values[f.key]]));
  const errors = Object.fromEntries(
    Object.entries(
      schemaErrors(GatewayUpdateRequest, { ...input, ...(spec.hasFee ? { fee: values.fee } : {}) }),
    ).filter(([k]) => own.has(k)),
  );
  if (spec.hasFee && values.isActive)
    for (const f of spec.fields)
      if (f.required && !errors[f.key] && !String(values[f.key]).trim()) errors[f.key] = `${f.label} is required`;
  return errors;
}

/** The multipart body of PUT /admin/gateways/{kind}: the card's own fields only; a secret left masked keeps the stored one. */
export function gatewayFormData(gateway: AdminGatewayDto, values: GatewayFormValues): FormData {
  const spec = GATEWAY_SPECS[gateway.value];
  const body = new FormData();
  body.append('name', gateway.value);
  for (const f of spec.fields) body.append(f.key, f.secret ? values[f.key] : values[f.key].trim());
  if (spec.hasFee) {
    body.append('fee', values.fee.trim());
    body.append('isActive', values.isActive ? 'true' : 'false');
  }
  if (spec.hasFile && values.file) body.append('file', values.file);
  return body;
}

export interface GatewayCardProps {
  gateway: AdminGatewayDto;
  /** The list to reload after a save. */
  queryKey: QueryKey;
}

/** One gateway's settings card (back-office spec §3 "Payment gateway" field sets). */
export function GatewayCard({ gateway, queryKey }: GatewayCardProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const spec = GATEWAY_SPECS[gateway.value];
  const name = t(spec.name);
  const form = useForm<GatewayFormValues>({
    initialValues: initialValues(gateway),
    validate: (values) => gatewayErrors(spec, values),
    validateInputOnBlur: true,
  });

  const submit = async (values: GatewayFormValues) => {
    let res: unknown;
    try {
      res = await apiPut<MessageResponse>(`/admin/gateways/${gateway.value}`, gatewayFormData(gateway, values));
    } catch (err) {
      applyServerErrors(form, err);
      toastError(errorMessage(err, t(GENERIC_ERROR)));
      return;
    }
    if (!toastIfSentForApproval(t, res)) toastSuccess(t('{{name}} updated successfully', { name }));
    await queryClient.invalidateQueries({ queryKey });
  };

  const input = (f: GatewayField) => {
    const props = fieldProps(form, f.key, t);
    const label = t(f.label);
    if (f.options)
      return (
        <Select
          key={f.key}
          label={label}
          withAsterisk={f.required}
          data={[...f.options]}
          allowDeselect={false}
          {...props}
        />
      );
    if (f.secret) {
      const masked = form.values[f.key] === SECRET_MASK;
      return (
        <PasswordInput
          key={f.key}
          label={label}
          withAsterisk={f.required}
          autoComplete="new-password"
          description={masked ? t('Saved. Leave as it is to keep it, or type a new one.') : undefined}
          // A focused mask is selected whole, so typing replaces it rather than appending to it.
          onFocus={(e) => masked && e.currentTarget.select()}
          {...props}
        />
      );
    }
    return <TextInput key={f.key} label={label} withAsterisk={f.required} autoComplete="off" {...props} />;
  };

  return (
    <Paper withBorder radius="md" p="lg" data-testid={`gateway-card-${gateway.value}`}>
      <form onSubmit={form.onSubmit(submit)} noValidate aria-label={name}>
        <Stack gap="sm">
          <div>
            <Group justify="space-between" wrap="nowrap">
              <Title order={4}>{name}</Title>
              {gateway.is_active ? (
                <StatusChip label={t('Active')} color="green" />
              ) : (
                <StatusChip label={t('Inactive')} color="gray" />
              )}
            </Group>
            {gateway.note && (
              <Text size="sm" c="dimmed">
                {t(gateway.note)}
              </Text>
            )}
          </div>
          {spec.fields.map(input)}
          {spec.hasFile && (
            <ImageUpload
              label={t('QR Code')}
              file={form.values.file}
              currentUrl={gateway.file}
              onChange={(file) => form.setFieldValue('file', file)}
              height={140}
            />
          )}
          {spec.hasFee && (
            <SimpleGrid cols={2} verticalSpacing="xs">
              <TextInput
                label={t('Fee (%)')}
                withAsterisk
                inputMode="decimal"
                autoComplete="off"
                {...fieldProps(form, 'fee', t)}
              />
              <Switch label={t('Active')} mt={30} {...form.getInputProps('isActive', { type: 'checkbox' })} />
            </SimpleGrid>
          )}
          <Group justify="flex-end">
            <UpdateButton submitting={form.submitting} />
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
