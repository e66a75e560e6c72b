import { useState } from 'react';
import { Button, Group, Modal, SegmentedControl, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  type ALERT_CONDITIONS,
  type ALERT_SIDES,
  AlertRequest,
  dec,
  GENERIC_ERROR,
  type AlertDto,
  type InstrumentDto,
} from '@platform/domain';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import { useInstruments } from '../api.ts';
import { formatPrice, pairLabel } from '../figures.ts';
import { useQuote } from '../quotes.ts';
import { useSaveAlert } from './api.ts';

type Side = (typeof ALERT_SIDES)[number];
type Condition = (typeof ALERT_CONDITIONS)[number];

export interface AlertDialogProps {
  /** The alert to edit; without it the dialog creates one. */
  alert?: AlertDto;
  /** The instrument a new alert starts on (the one selected in the terminal), by name. */
  defaultInstrument?: string;
  onClose: () => void;
}

export const instrumentTitle = (i: Pick<InstrumentDto, 'base' | 'quote'> | undefined, name: string): string =>
  i ? pairLabel(i.base, i.quote) : name.replace('_', '/');

/** The current price of a side, as text with the instrument's digits ('' before the first quote). */
function priceText(q: { bid: number; ask: number } | undefined, side: Side, digits: number): string {
  const v = q ? (side === 'bid' ? q.bid : q.ask) : null;
  return v === null ? '' : dec(v).toFixed(digits);
}

/**
 * Create or edit a price alert: instrument, bid or ask, above or below, the level (a new alert starts at the current
 * price of the side) and whether to mail it too. Saving a fired alert arms it again. The server's refusals (a level
 * the price already meets, too many alerts) come back as the price field's error and a toast.
 */
export function AlertDialog({ alert, defaultInstrument, onClose }: AlertDialogProps) {
  const { t } = useTranslation();
  const instruments = useInstruments();
  const list = instruments.data ?? [];
  const [name, setName] = useState(alert?.instrument ?? defaultInstrument ?? list[0]?.name ?? '');
  const [side, setSide] = useState<Side>(alert?.side ?? 'bid');
  const [condition, setCondition] = useState<Condition>(alert?.condition ?? 'above');
  const [email, setEmail] = useState(alert?.email ?? false);
  const instrument = list.find((i) => i.name === name);
  const digits = instrument?.digits ?? 5;
  const live = useQuote(name);
  const quote =
    live ??
    (instrument?.bids != null && instrument.asks != null ? { bid: instrument.bids, ask: instrument.asks } : undefined);
  // null: untouched, so the field follows the current price of the chosen instrument and side.
  const [typed, setTyped] = useState<string | null>(alert ? dec(alert.price).toFixed(digitsOf(list, alert)) : null);
  const price = typed ?? priceText(quote, side, digits);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveAlert();

  const now = priceText(quote, side, digits);
  const pattern = new RegExp(`^\\d*\\.?\\d{0,${digits}}$`);
  const body = { instrument: name, side, condition, price, email };
  const parsed = AlertRequest.safeParse(body);
  const met = now !== '' && parsed.success && (condition === 'above' ? dec(price).lte(now) : dec(price).gte(now));

  const submit = () => {
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      setErrors({ [String(first.path[0] ?? 'price')]: first.message });
      return;
    }
    save.mutate(
      { id: alert?.id ?? null, body },
      {
        onSuccess: (res) => {
          toastSuccess(t(res.message));
          onClose();
        },
        onError: (err) => {
          setErrors(err instanceof ApiError && err.errors ? err.errors : {});
          toastError(errorMessage(err, t(GENERIC_ERROR)));
        },
      },
    );
  };

  const options = list.map((i) => ({ value: i.name, label: instrumentTitle(i, i.name) }));
  return (
    <Modal
      opened
      onClose={onClose}
      centered
      size="sm"
      title={<Text fw={700}>{alert ? t('Edit Alert') : t('New Alert')}</Text>}
    >
      <Stack gap="md">
        <Select
          label={t('Instrument')}
          data={options}
          value={name || null}
          onChange={(v) => {
            if (!v) return;
            setName(v);
            setTyped(null);
            setErrors({});
          }}
          searchable
          allowDeselect={false}
          nothingFoundMessage={t('No instruments found')}
          error={errors.instrument}
          comboboxProps={{ withinPortal: true }}
        />
        <div>
          <Text size="sm" fw={500} mb={4}>
            {t('Price to watch')}
          </Text>
          <SegmentedControl
            fullWidth
            aria-label={t('Price to watch')}
            value={side}
            onChange={(v) => {
              setSide(v as Side);
              if (!alert) setTyped(null);
            }}
            data={[
              { value: 'bid', label: t('Bid') },
              { value: 'ask', label: t('Ask') },
            ]}
          />
        </div>
        <div>
          <Text size="sm" fw={500} mb={4}>
            {t('Condition')}
          </Text>
          <SegmentedControl
            fullWidth
            aria-label={t('Condition')}
            value={condition}
            onChange={(v) => setCondition(v as Condition)}
            data={[
              { value: 'above', label: t('Rises to or above') },
              { value: 'below', label: t('Falls to or below') },
            ]}
          />
        </div>
        <TextInput
          label={t('Alert price')}
          value={price}
          inputMode="decimal"
          autoComplete="off"
          onChange={(e) => {
            const next = e.currentTarget.value.trim();
            if (!pattern.test(next)) return;
            setTyped(next);
            setErrors({});
          }}
          description={
            now
              ? t(
                  // Still the current price: say where the level must go rather than flag it as an error.
                  met && typed === null
                    ? condition === 'above'
                      ? '{{side}} now {{price}}: set a level above it'
                      : '{{side}} now {{price}}: set a level below it'
                    : '{{side}} now {{price}}',
                  { side: side === 'bid' ? t('Bid') : t('Ask'), price: formatPrice(now, digits) },
                )
              : undefined
          }
          error={
            errors.price ??
            (met && typed !== null
              ? condition === 'above'
                ? t('The price is already at or above this level: choose a higher one.')
                : t('The price is already at or below this level: choose a lower one.')
              : undefined)
          }
          styles={{ input: { fontVariantNumeric: 'tabular-nums' } }}
          data-testid="alert-price"
        />
        <Switch
          label={t('Also send me an email')}
          checked={email}
          onChange={(e) => setEmail(e.currentTarget.checked)}
        />
        {alert?.status === 'fired' && (
          <Text size="xs" c="dimmed">
            {t('This alert has fired. Saving arms it again.')}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button onClick={submit} loading={save.isPending} disabled={!name || price === '' || met}>
            {alert ? t('Save') : t('Create Alert')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function digitsOf(list: readonly InstrumentDto[], alert: AlertDto): number {
  const d = list.find((i) => i.name === alert.instrument)?.digits;
  return d ?? Math.max(dec(alert.price).decimalPlaces(), 0);
}
