import dayjs from 'dayjs';
import { useMemo, useRef, useState } from 'react';
import { Accordion, Box, Center, Overlay, Paper, Stack, Tabs, Text, TextInput, ThemeIcon } from '@mantine/core';
import { IconLock, IconSearch, IconStarFilled } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  GENERIC_ERROR,
  marketOfCategory,
  type CategoryName,
  type FavoriteDto,
  type InstrumentDto,
  type MarketStatus,
} from '@platform/domain';
import { apiPost } from '../../api/client.ts';
import { toastError, toastSuccess } from '../../ui/toast.ts';
import { tradingKeys, useFavorites } from './api.ts';
import { InstrumentList, type InstrumentActions } from './InstrumentList.tsx';
import { preloadInstrumentSearch, useInstrumentSearch } from './instrumentSearch.ts';
import { useArrowKeys } from './terminalKeys.ts';

/** The market tabs in the spec's order (§2). */
export const MARKET_TABS: ReadonlyArray<{ category: CategoryName; label: string }> = [
  { category: 'forex', label: 'FOREX' },
  { category: 'commodity', label: 'COMMODITIES' },
  { category: 'index', label: 'INDICES' },
  { category: 'stock', label: 'STOCK' },
  { category: 'crypto', label: 'CRYPTO' },
];

export interface InstrumentPanelProps extends Omit<InstrumentActions, 'onToggleFavorite'> {
  instruments: readonly InstrumentDto[];
  /** Unknown until the first status arrives; treated as open (the server refuses orders on a closed market). */
  marketStatus: MarketStatus | undefined;
  selected: string | null;
}

/** Left panel of the dashboard: search, Favorite Pairs and the five market tabs (spec §2). */
export function InstrumentPanel({ instruments, marketStatus, selected, onSelect, onTrade }: InstrumentPanelProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [query, setQuery] = useState('');
  const [tab, setTab] = useState<string | null>('forex');
  const favorites = useFavorites();

  const results = useInstrumentSearch(instruments, query);
  const favoriteIds = useMemo(() => new Set((favorites.data ?? []).map((f) => f.list_id)), [favorites.data]);
  const favoriteInstruments = instruments.filter((i) => favoriteIds.has(i.id));

  const isOpen = (category: CategoryName) => !marketStatus || marketStatus[marketOfCategory(category)] === 'open';
  const isMarketOpen = (i: InstrumentDto) => isOpen(i.category);

  const toggle = useMutation({
    mutationFn: ({ instrument, add }: { instrument: InstrumentDto; add: boolean }) =>
      apiPost(add ? '/dashboard/add-to-favorite' : '/dashboard/remove-from-favorite', { id: instrument.id }),
    onSuccess: (_data, { add }) => toastSuccess(add ? t('Added to favorites') : t('Removed from favorites')),
    onError: () => toastError(t(GENERIC_ERROR)),
    onSettled: () => client.invalidateQueries({ queryKey: tradingKeys.favorites }),
  });
  const onToggleFavorite = (instrument: InstrumentDto) => {
    const add = !favoriteIds.has(instrument.id);
    // The star flips at once; the reload after the call settles confirms it.
    client.setQueryData<FavoriteDto[]>(tradingKeys.favorites, (list = []) =>
      add
        ? [...list, { id: -instrument.id, list_id: instrument.id, name: instrument.name }]
        : list.filter((f) => f.list_id !== instrument.id),
    );
    toggle.mutate({ instrument, add });
  };

  const listProps = { favoriteIds, isMarketOpen, selected, onSelect, onTrade, onToggleFavorite };

  // Up and Down go through the list in view (the search results, else the open market tab) and scroll to the row.
  const root = useRef<HTMLDivElement>(null);
  const searching = query.trim() !== '';
  const inView = searching ? results : instruments.filter((i) => i.category === tab);
  useArrowKeys((step) => {
    if (inView.length === 0) return false;
    const at = inView.findIndex((i) => i.name === selected);
    const next =
      inView[at < 0 ? (step > 0 ? 0 : inView.length - 1) : Math.min(Math.max(at + step, 0), inView.length - 1)];
    onSelect(next);
    root.current
      ?.querySelector(
        `[data-testid="${searching ? 'search-results' : `market-${tab}`}"] [data-testid="instrument-${next.name}"]`,
      )
      ?.scrollIntoView?.({ block: 'nearest' });
    return true;
  });

  return (
    <Paper withBorder radius="md" p="sm" ref={root}>
      <Stack gap="sm">
        <TextInput
          aria-label={t('Search instruments')}
          placeholder={t('Search instruments')}
          leftSection={<IconSearch size={16} />}
          value={query}
          onFocus={() => void preloadInstrumentSearch()}
          onChange={(e) => setQuery(e.currentTarget.value)}
        />
        {query.trim() ? (
          <Box data-testid="search-results">
            <InstrumentList {...listProps} instruments={results} emptyText={t('No instruments found')} />
          </Box>
        ) : (
          <>
            <Accordion variant="contained" defaultValue="favorites">
              <Accordion.Item value="favorites">
                <Accordion.Control icon={<IconStarFilled size={14} color="var(--mantine-color-yellow-5)" />}>
                  {t('Favorite Pairs')}
                </Accordion.Control>
                <Accordion.Panel>
                  <InstrumentList
                    {...listProps}
                    instruments={favoriteInstruments}
                    emptyText={t('Star an instrument to keep it here.')}
                  />
                </Accordion.Panel>
              </Accordion.Item>
            </Accordion>
            <Tabs value={tab} onChange={setTab} keepMounted={false}>
              {/* The market tabs scroll sideways when they do not fit, rather than wrapping onto a second line. */}
              <Tabs.List
                grow
                style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden', scrollbarWidth: 'thin' }}
              >
                {MARKET_TABS.map((m) => (
                  <Tabs.Tab
                    key={m.category}
                    value={m.category}
                    px={6}
                    fz="xs"
                    fw={600}
                    style={{ flexShrink: 0, whiteSpace: 'nowrap' }}
                  >
                    {t(m.label)}
                  </Tabs.Tab>
                ))}
              </Tabs.List>
              {MARKET_TABS.map((m) => (
                <Tabs.Panel key={m.category} value={m.category} pt="xs">
                  <Box pos="relative" mih={160} data-testid={`market-${m.category}`}>
                    <InstrumentList
                      {...listProps}
                      instruments={instruments.filter((i) => i.category === m.category)}
                      emptyText={t('No instruments')}
                    />
                    {!isOpen(m.category) && (
                      <MarketClosed
                        opensAt={
                          marketStatus?.nextOpen?.[marketOfCategory(m.category) === 'stock' ? 'stock' : 'fx'] ?? null
                        }
                      />
                    )}
                  </Box>
                </Tabs.Panel>
              ))}
            </Tabs>
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** The "Market Closed" cover of a tab, with when the market opens again in the user's own time zone. */
function MarketClosed({ opensAt }: { opensAt: string | null }) {
  const { t } = useTranslation();
  return (
    <Overlay backgroundOpacity={0.65} color="#000" blur={2} zIndex={5} radius="sm">
      <Center h="100%">
        <Stack align="center" gap="xs">
          <ThemeIcon size="xl" radius="xl" variant="light" color="gray">
            <IconLock size={22} />
          </ThemeIcon>
          <Text fw={700} size="lg">
            {t('Market Closed')}
          </Text>
          {opensAt && (
            <Text size="sm" c="dimmed" data-testid="market-reopens">
              {t('Opens {{when}}', { when: dayjs(opensAt).format('ddd D MMM, HH:mm') })}
            </Text>
          )}
        </Stack>
      </Center>
    </Overlay>
  );
}
