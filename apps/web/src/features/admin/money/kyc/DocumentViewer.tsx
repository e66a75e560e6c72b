import { useState } from 'react';
import { Anchor, Button, Group, Image, Modal, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AdminKycDto } from '@platform/domain';

export type KycFileSide = 'front' | 'back' | 'address';

export const KYC_FILE_LABELS: Record<KycFileSide, string> = { front: 'Front', back: 'Back', address: 'Address' };

export interface ViewedFile {
  document: AdminKycDto;
  side: KycFileSide;
  url: string;
  mime: string;
}

const uploadedSides = (document: AdminKycDto) =>
  (Object.keys(KYC_FILE_LABELS) as KycFileSide[]).filter((side) => document[side]?.url);
export const hasKycFiles = (document: AdminKycDto) => uploadedSides(document).length > 0;

/** The VIEW cell: a button per uploaded side of the document. */
export function DocumentFileButtons({
  document,
  onView,
}: {
  document: AdminKycDto;
  onView: (file: ViewedFile) => void;
}) {
  const { t } = useTranslation();
  const sides = uploadedSides(document);
  return (
    <Group gap={4} wrap="nowrap">
      {sides.map((side) => (
        <Button
          key={side}
          size="compact-xs"
          variant="light"
          onClick={() => onView({ document, side, url: document[side]!.url, mime: document[side]!.mime })}
        >
          {t(KYC_FILE_LABELS[side])}
        </Button>
      ))}
    </Group>
  );
}

/** Shows an uploaded image; a PDF (the page may not embed documents) is offered as a link to open. */
function FilePreview({ file }: { file: ViewedFile }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(file.mime === 'application/pdf');
  const label = t(KYC_FILE_LABELS[file.side]);
  return (
    <Stack gap="sm">
      {failed ? (
        <Text c="dimmed" ta="center" py="xl">
          {file.mime === 'application/pdf'
            ? t('This document is a PDF. Open it in a new tab.')
            : t('This file cannot be shown here. Open it in a new tab.')}
        </Text>
      ) : (
        <Image src={file.url} alt={label} fit="contain" mah="70vh" onError={() => setFailed(true)} />
      )}
      <Group justify="flex-end">
        <Anchor href={file.url} target="_blank" rel="noopener noreferrer" size="sm">
          <Group gap={4} component="span">
            {t('Open in new tab')}
            <IconExternalLink size={14} />
          </Group>
        </Anchor>
      </Group>
    </Stack>
  );
}

/** The document viewer modal of the KYC list. */
export function DocumentViewer({ file, onClose }: { file: ViewedFile | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={file !== null}
      onClose={onClose}
      size="lg"
      title={file ? `${file.document.user.full_name}: ${t(KYC_FILE_LABELS[file.side])}` : ''}
    >
      {file && <FilePreview key={file.url} file={file} />}
    </Modal>
  );
}
