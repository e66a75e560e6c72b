import type { ReactNode } from 'react';
import { Group, Paper, Text, Title } from '@mantine/core';

export interface PageCardProps {
  /** Already translated title. */
  title: string;
  description?: string;
  actions?: ReactNode;
  children: ReactNode;
}

/** The framed block every account page sits in: title, optional description and actions, content. */
export function PageCard({ title, description, actions, children }: PageCardProps) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
      <Group justify="space-between" align="flex-start" mb="lg">
        <div>
          <Title order={3}>{title}</Title>
          {description && (
            <Text size="sm" c="dimmed" mt={4}>
              {description}
            </Text>
          )}
        </div>
        {actions}
      </Group>
      {children}
    </Paper>
  );
}
