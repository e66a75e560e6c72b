import { Badge, Box, Group, Tooltip } from '@mantine/core';

/** A coloured status label in a table cell (Active/Inactive, Sent/Failed...). */
export function StatusChip({ label, color }: { label: string; color: string }) {
  return (
    // Never shortened to "APPRO…": the chip keeps the width of its word and the table makes room for it.
    <Badge
      color={color}
      variant="light"
      radius="sm"
      style={{ minWidth: 'max-content' }}
      styles={{ label: { overflow: 'visible' } }}
    >
      {label}
    </Badge>
  );
}

/** A name with the presence dot the spec asks for: green online, red offline. */
export function OnlineName({
  name,
  online,
  onlineLabel,
  offlineLabel,
}: {
  name: string;
  online: boolean;
  onlineLabel: string;
  offlineLabel: string;
}) {
  return (
    <Group gap={8} wrap="nowrap">
      <Tooltip label={online ? onlineLabel : offlineLabel}>
        <Box
          component="span"
          aria-label={online ? onlineLabel : offlineLabel}
          data-online={online}
          w={10}
          h={10}
          style={{
            borderRadius: '50%',
            flexShrink: 0,
            background: `var(--mantine-color-${online ? 'green' : 'red'}-6)`,
          }}
        />
      </Tooltip>
      <span>{name}</span>
    </Group>
  );
}
