import { SimpleGrid } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { GATEWAY_KINDS, type AdminGatewaysResponse, type GatewaySpec } from '@platform/domain';
import { apiGet } from '../../../../api/client.ts';
import { Loaded } from '../../trade-management/settingsForm.tsx';
import { GatewayCard } from './GatewayCard.tsx';

export const GATEWAYS_QUERY_KEY = ['admin', 'gateways'] as const;

const order = (kind: string) => (GATEWAY_KINDS as readonly string[]).indexOf(kind);

/**
 * Automatic Gateways (/admin/gateways) and Manual Gateways (/admin/gateways/manual): a two-column grid of the
 * group's gateway cards (back-office spec §2).
 */
export function GatewaysPage({ group }: { group: GatewaySpec['group'] }) {
  const query = useQuery({
    queryKey: GATEWAYS_QUERY_KEY,
    queryFn: () => apiGet<AdminGatewaysResponse>('/admin/gateways'),
  });
  return (
    <Loaded query={query}>
      {({ data }) => (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          {data
            .filter((g) => g.group === group)
            .sort((a, b) => order(a.value) - order(b.value))
            .map((g) => (
              // Keyed by what the server holds, so a save (or another admin's) starts the card from the stored values.
              <GatewayCard key={JSON.stringify(g)} gateway={g} queryKey={GATEWAYS_QUERY_KEY} />
            ))}
        </SimpleGrid>
      )}
    </Loaded>
  );
}
