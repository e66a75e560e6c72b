import { Fragment, type ReactNode } from 'react';
import { Anchor } from '@mantine/core';

const URL_PATTERN = /(https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]])/g;

/** Plain mail text with its web addresses made clickable (verification and reset links). */
export function linkify(text: string): ReactNode[] {
  return text.split(URL_PATTERN).map((part, i) =>
    // split() with a capturing group puts the matches at odd indexes.
    i % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: split() parts have no identity but their place
      <Anchor key={i} href={part} target="_blank" rel="noopener noreferrer" style={{ wordBreak: 'break-all' }}>
        {part}
      </Anchor>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: split() parts have no identity but their place
      <Fragment key={i}>{part}</Fragment>
    ),
  );
}
