import { Autocomplete, NumberInput, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  CHART_PROVIDERS,
  InstrumentRequest,
  LOT_UNITS,
  type AdminInstrumentDto,
  type Category,
} from '@platform/domain';
import { fieldProps } from '../../../ui/form.ts';
import { FormActions, useSaveItem } from '../../../ui/list-page/index.ts';

/** What the inputs hold: prices as typed text (exact decimals), numbers as NumberInput gives them. */
export type InstrumentFormValues = {
  name: string;
  base: string;
  quote: string;
  category: Category;
  bids: string;
  asks: string;
  tradingview: string;
  alias: string;
  leverage: number | string;
  tradable: boolean;
  swap: number | string;
  /** Empty: the side takes the swap. */
  swapLong: number | string;
  swapShort: number | string;
  /** Units in one lot; empty: the category's default. */
  contractSize: string;
};

/** A side's rate as the form starts it: empty when it is the swap (the usual case), else its own. */
const sideRate = (side: string | undefined, swap: string | undefined): number | string =>
  side === undefined || Number(side) === Number(swap) ? '' : Number(side);

function initialValues(instrument: AdminInstrumentDto | undefined, category: Category): InstrumentFormValues {
  return {
    name: instrument?.name ?? '',
    base: instrument?.base ?? '',
    quote: instrument?.quote ?? '',
    category: instrument?.category ?? category,
    // On edit the price starts empty: empty keeps the live price, a typed one replaces it.
    bids: '',
    asks: '',
    tradingview: instrument?.tradingview ?? '',
    alias: instrument?.alias ?? '',
    leverage: instrument?.leverage ?? 0,
    tradable: instrument?.tradable ?? true,
    swap: instrument ? Number(instrument.swap) : 0,
    swapLong: sideRate(instrument?.swap_long, instrument?.swap),
    swapShort: sideRate(instrument?.swap_short, instrument?.swap),
    contractSize: instrument?.contract_size ?? '',
  };
}

/** The body of POST /admin/instruments and PUT .../{id}: an empty bid, ask or alias is null (the live price stays). */
const instrumentPayload = (values: InstrumentFormValues) => ({
  ...values,
  bids: values.bids.trim() === '' ? null : values.bids.trim(),
  asks: values.asks.trim() === '' ? null : values.asks.trim(),
  alias: values.alias.trim() === '' ? null : values.alias,
  contractSize: values.contractSize.trim() === '' ? null : values.contractSize.trim(),
});

export interface InstrumentFormProps {
  /** The instrument being edited; absent for add-new. */
  instrument?: AdminInstrumentDto;
  /** The category of the list (from the url); a new instrument gets it. */
  category: Category;
  onSaved: () => void;
  onCancel?: () => void;
}

/** Add or edit an instrument (POST /admin/instruments, PUT /admin/instruments/{id}), validated by the shared schema. */
export function InstrumentForm({ instrument, category, onSaved, onCancel }: InstrumentFormProps) {
  const { t } = useTranslation();
  const form = useForm<InstrumentFormValues>({
    initialValues: initialValues(instrument, category),
    validate: schemaResolver(InstrumentRequest, { sync: true }),
    validateInputOnBlur: true,
  });
  const f = (name: keyof InstrumentFormValues & string, type?: 'checkbox') =>
    fieldProps(form, name, t, type ? { type } : undefined);

  const submit = useSaveItem(form, {
    url: '/admin/instruments',
    id: instrument?.id,
    body: instrumentPayload,
    savedMessage: t(instrument ? 'Instrument updated successfully' : 'Instrument added successfully'),
    onSaved,
  });

  const pricePlaceholder = (live: string | null | undefined) =>
    instrument && live ? `${t('Current')}: ${live}` : undefined;
  const locked = Boolean(instrument && instrument.open_positions > 0);
  const lockedHint = locked ? t('Fixed while positions are open') : undefined;

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('Instrument Name')}
            placeholder="EUR_USD"
            withAsterisk
            disabled={locked}
            description={lockedHint}
            {...f('name')}
          />
          <TextInput label={t('Alias')} placeholder={t('Euro / US Dollar')} {...f('alias')} />
          <TextInput label={t('Base')} placeholder="EUR" withAsterisk disabled={locked} {...f('base')} />
          <TextInput label={t('Quote')} placeholder="USD" withAsterisk disabled={locked} {...f('quote')} />
          <TextInput
            label={t('Bid')}
            inputMode="decimal"
            placeholder={pricePlaceholder(instrument?.bids)}
            {...f('bids')}
          />
          <TextInput
            label={t('Ask')}
            inputMode="decimal"
            placeholder={pricePlaceholder(instrument?.asks)}
            {...f('asks')}
          />
        </SimpleGrid>
        <Text size="xs" c="dimmed" mt={-8}>
          {instrument
            ? t('Leave bid and ask empty to keep the live price.')
            : t('Bid and ask set the starting price of the simulated feed.')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Autocomplete label={t('Chart Provider')} data={[...CHART_PROVIDERS]} withAsterisk {...f('tradingview')} />
          <NumberInput
            label={t('Leverage')}
            withAsterisk
            min={0}
            allowDecimal={false}
            allowNegative={false}
            {...f('leverage')}
          />
          <NumberInput label={t('Swap (%)')} decimalScale={4} {...f('swap')} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label={t('Swap Long (% a year)')}
            placeholder={t('Same as Swap')}
            decimalScale={4}
            {...f('swapLong')}
          />
          <NumberInput
            label={t('Swap Short (% a year)')}
            placeholder={t('Same as Swap')}
            decimalScale={4}
            {...f('swapShort')}
          />
        </SimpleGrid>
        <Text size="xs" c="dimmed" mt={-8}>
          {t(
            "Percent a year of the position's opening value, added at each rollover: negative is charged, positive credited.",
          )}
        </Text>
        <TextInput
          label={t('Contract size (units in one lot)')}
          placeholder={`${t('Default')}: ${LOT_UNITS[form.values.category]}`}
          inputMode="decimal"
          autoComplete="off"
          {...f('contractSize')}
        />
        <Switch label={t('Tradable')} {...f('tradable', 'checkbox')} />
        <FormActions editing={Boolean(instrument)} submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
