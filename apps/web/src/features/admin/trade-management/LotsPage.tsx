import {
  ActionIcon,
  Button,
  Group,
  Input,
  NumberInput,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { schemaResolver, useForm, type UseFormReturnType } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  LOT_KEYS,
  LotModesRequest,
  LotSelectorRequest,
  type LotKey,
  type LotSettingsResponse,
  type MessageResponse,
} from '@platform/domain';
import { apiGet, apiPost } from '../../../api/client.ts';
import { fieldProps } from '../../../ui/form.ts';
import { Loaded, UpdateButton, useSettingsSave } from './settingsForm.tsx';

export const LOTS_QUERY_KEY = ['admin', 'lots'] as const;

const CATEGORY_LABELS: Record<LotKey, string> = {
  lot_forex: 'Forex',
  lot_commodity: 'Commodity',
  lot_index: 'Index',
  lot_stock: 'Stock',
  lot_crypto: 'Crypto',
};

type ModeValues = LotSettingsResponse['modes'];

type PresetValues = {
  lotSelector: Array<{ label: string; value: number | string }>;
  category?: string;
};

/** Both lot forms post their own values and report "Lots updated successfully". */
function useLotsSave<V extends Record<string, unknown>>(url: string, form: UseFormReturnType<V>) {
  const { t } = useTranslation();
  const save = useSettingsSave(form, LOTS_QUERY_KEY);
  return (values: V) => save(() => apiPost<MessageResponse>(url, values), t('Lots updated successfully'));
}

/** Per category: the order size is picked from the lot presets or typed as an amount. */
function LotModesForm({ initial }: { initial: ModeValues }) {
  const { t } = useTranslation();
  const form = useForm<ModeValues>({
    initialValues: { ...initial },
    validate: schemaResolver(LotModesRequest, { sync: true }),
  });
  const save = useLotsSave('/admin/lots', form);
  const options = [
    { value: 'lot', label: t('Lot') },
    { value: 'amount', label: t('Amount') },
  ];
  return (
    <form onSubmit={form.onSubmit(save)} noValidate aria-label={t('Lot Mode')}>
      <Stack gap="md">
        <div>
          <Title order={4}>{t('Lot Mode')}</Title>
          <Text size="sm" c="dimmed">
            {t('Whether traders pick a lot preset or type an amount, per market.')}
          </Text>
        </div>
        {LOT_KEYS.map((key) => (
          <Input.Wrapper
            key={key}
            label={t(CATEGORY_LABELS[key])}
            error={fieldProps(form, key, t).error}
            data-testid={`lot-mode-${key}`}
          >
            <div>
              <SegmentedControl
                data={options}
                value={form.values[key]}
                onChange={(v) => form.setFieldValue(key, v as ModeValues[LotKey])}
                aria-label={t(CATEGORY_LABELS[key])}
              />
            </div>
          </Input.Wrapper>
        ))}
        <Group justify="flex-end">
          <UpdateButton submitting={form.submitting} />
        </Group>
      </Stack>
    </form>
  );
}

type OtherCategory = (typeof OTHER_CATEGORIES)[number];
const OTHER_CATEGORIES = ['commodity', 'index', 'stock', 'crypto'] as const;

/**
 * The lot presets the order dialog offers, in order: forex's (the spec's lot selector, sizes in units), or another
 * category's (sizes in lots, which each instrument turns into units with its contract size).
 */
function LotSelectorForm({
  initial,
  category,
}: {
  initial: LotSettingsResponse['lotSelector'];
  category?: OtherCategory;
}) {
  const { t } = useTranslation();
  const form = useForm<PresetValues>({
    initialValues: { lotSelector: initial.map((p) => ({ ...p })) },
    validate: schemaResolver(LotSelectorRequest, { sync: true }),
    validateInputOnBlur: true,
  });
  const post = useLotsSave('/admin/lotSelector', form);
  const save = (values: PresetValues) => post(category ? { ...values, category } : values);
  const listError = form.errors.lotSelector;
  /** Input props of a list field (e.g. lotSelector.0.value) with the schema's message translated. */
  const itemField = (path: string) => {
    const props = form.getInputProps(path);
    return { ...props, error: typeof props.error === 'string' && props.error ? t(props.error) : props.error };
  };
  return (
    <form onSubmit={form.onSubmit(save)} noValidate aria-label={category ? t('Lot sizes') : t('Lot Selector')}>
      <Stack gap="md">
        {category ? (
          <Text size="sm" c="dimmed">
            {t(
              "The presets traders choose from in lot mode; the value is the size in lots, turned into units by each instrument's contract size (Instruments).",
            )}
          </Text>
        ) : (
          <div>
            <Title order={4}>{t('Lot Selector')}</Title>
            <Text size="sm" c="dimmed">
              {t(
                'The presets traders choose from in lot mode; the value is the size in units (a standard lot is 100000).',
              )}
            </Text>
          </div>
        )}
        {form.values.lotSelector.map((_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional entries of the form list
          <Group key={i} align="flex-start" gap="sm" wrap="nowrap" data-testid={`${category ?? 'lot'}-preset-${i}`}>
            <TextInput label={t('Label')} withAsterisk style={{ flex: 2 }} {...itemField(`lotSelector.${i}.label`)} />
            <NumberInput
              label={category ? t('Lots') : t('Value')}
              withAsterisk
              min={0}
              decimalScale={8}
              allowNegative={false}
              style={{ flex: 1 }}
              {...itemField(`lotSelector.${i}.value`)}
            />
            <Tooltip label={t('Remove')}>
              <ActionIcon
                variant="subtle"
                color="red"
                mt={28}
                aria-label={t('Remove')}
                onClick={() => form.removeListItem('lotSelector', i)}
              >
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
          </Group>
        ))}
        {typeof listError === 'string' && (
          <Text c="red" size="sm">
            {t(listError)}
          </Text>
        )}
        <Group justify="space-between">
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => form.insertListItem('lotSelector', { label: '', value: '' })}
          >
            {t('Add Preset')}
          </Button>
          <UpdateButton submitting={form.submitting} />
        </Group>
      </Stack>
    </form>
  );
}

/** The lot sizes of commodities, indices, stocks and crypto, one category at a time. */
function CategoryPresets({ presets }: { presets: NonNullable<LotSettingsResponse['categoryPresets']> }) {
  const { t } = useTranslation();
  const [category, setCategory] = useState<OtherCategory>('commodity');
  const initial = presets[category] ?? [];
  return (
    <Stack gap="md">
      <div>
        <Title order={4}>{t('Lot sizes of other markets')}</Title>
      </div>
      <SegmentedControl
        data={OTHER_CATEGORIES.map((c) => ({ value: c, label: t(CATEGORY_LABELS[`lot_${c}`]) }))}
        value={category}
        onChange={(v) => setCategory(v as OtherCategory)}
        aria-label={t('Market')}
      />
      <LotSelectorForm key={`${category}${JSON.stringify(initial)}`} initial={initial} category={category} />
    </Stack>
  );
}

/** Lot Settings (/admin/lots): the per-category mode form and the lot selector presets form (back-office spec §2). */
export function LotsPage() {
  const query = useQuery({ queryKey: LOTS_QUERY_KEY, queryFn: () => apiGet<LotSettingsResponse>('/admin/lots') });
  return (
    <Loaded query={query}>
      {(data) => (
        <Stack gap="lg">
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
            <LotModesForm key={JSON.stringify(data.modes)} initial={data.modes} />
          </Paper>
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
            <LotSelectorForm key={JSON.stringify(data.lotSelector)} initial={data.lotSelector} />
          </Paper>
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
            <CategoryPresets presets={data.categoryPresets ?? {}} />
          </Paper>
        </Stack>
      )}
    </Loaded>
  );
}
