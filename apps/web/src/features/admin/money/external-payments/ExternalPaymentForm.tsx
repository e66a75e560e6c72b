import { SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { ExternalPaymentRequest, type ExternalPaymentDto } from '@platform/domain';
import { fieldProps, schemaErrors } from '../../../../ui/form.ts';
import { FormActions, useSaveItem } from '../../../../ui/list-page/index.ts';
import { ImageUpload } from '../ImageUpload.tsx';

export interface ExternalPaymentFormValues {
  name: string;
  link: string;
  customLabel: string;
  customValue: string;
  logo: File | null;
  [field: string]: unknown;
}

export interface ExternalPaymentFormProps {
  /** The payment being edited; absent for add-new. */
  payment?: ExternalPaymentDto;
  onSaved: () => void;
  onCancel?: () => void;
}

/** The multipart body of POST /admin/externalPayments and PUT .../{id}; without a new logo the stored one stays. */
export function externalPaymentFormData(values: ExternalPaymentFormValues): FormData {
  const body = new FormData();
  if (values.logo) body.append('logo', values.logo);
  body.append('name', values.name.trim());
  body.append('link', values.link.trim());
  body.append('customLabel', values.customLabel.trim());
  body.append('customValue', values.customValue.trim());
  return body;
}

/** Add or edit an external payment link, checked by the shared schema; a new one needs a logo. */
export function ExternalPaymentForm({ payment, onSaved, onCancel }: ExternalPaymentFormProps) {
  const { t } = useTranslation();
  const form = useForm<ExternalPaymentFormValues>({
    initialValues: {
      name: payment?.name ?? '',
      link: payment?.link ?? '',
      customLabel: payment?.custom_label ?? '',
      customValue: payment?.custom_value ?? '',
      logo: null,
    },
    validate: (values) => {
      const errors = schemaErrors(ExternalPaymentRequest, values);
      if (!payment && !values.logo) errors.logo = 'Logo is required';
      return errors;
    },
    validateInputOnBlur: true,
  });

  const submit = useSaveItem(form, {
    url: '/admin/externalPayments',
    id: payment?.id,
    body: externalPaymentFormData,
    savedMessage: t(payment ? 'External payment updated successfully' : 'External payment added successfully'),
    onSaved,
  });

  const logoError = form.errors.logo;
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <ImageUpload
          label={t('Logo')}
          required={!payment}
          file={form.values.logo}
          currentUrl={payment?.logo}
          onChange={(file) => {
            form.setFieldValue('logo', file);
            if (file) form.clearFieldError('logo');
          }}
          error={typeof logoError === 'string' ? t(logoError) : null}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('Name')} withAsterisk autoComplete="off" {...fieldProps(form, 'name', t)} />
          <TextInput
            label={t('Link')}
            withAsterisk
            placeholder="https://"
            autoComplete="off"
            {...fieldProps(form, 'link', t)}
          />
          <TextInput label={t('Custom Label')} autoComplete="off" {...fieldProps(form, 'customLabel', t)} />
          <TextInput label={t('Custom Value')} autoComplete="off" {...fieldProps(form, 'customValue', t)} />
        </SimpleGrid>
        <FormActions editing={Boolean(payment)} submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
