import { useEffect, useId, useState } from 'react';
import { Box, Image, Input, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconPhotoUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Image types the server keeps (it checks the content, not the name). */
export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp';

/** A local preview of a chosen file, released when the file changes or the box goes. */
function usePreview(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

export interface ImageUploadProps {
  label: string;
  file: File | null;
  /** The image already stored (shown until another file is chosen). */
  currentUrl?: string | null;
  onChange: (file: File | null) => void;
  error?: string | null;
  required?: boolean;
  /** Preview height in pixels. */
  height?: number;
}

/**
 * The image upload box of the gateway and external payment forms: click (or focus and press Space) to choose a file;
 * shows the chosen file's preview with "File Added", else the stored image, else a hint.
 */
export function ImageUpload({ label, file, currentUrl, onChange, error, required, height = 120 }: ImageUploadProps) {
  const { t } = useTranslation();
  const id = useId();
  const preview = usePreview(file);
  const shown = preview ?? (file ? null : (currentUrl ?? null));

  return (
    <Input.Wrapper label={label} labelProps={{ htmlFor: id }} withAsterisk={required} error={error}>
      <Box
        component="label"
        htmlFor={id}
        display="block"
        p="sm"
        style={{
          cursor: 'pointer',
          borderRadius: 'var(--mantine-radius-md)',
          border: `1px dashed var(--mantine-color-${error ? 'red-6' : 'gray-4'})`,
        }}
      >
        <VisuallyHidden>
          <input
            id={id}
            type="file"
            accept={IMAGE_ACCEPT}
            aria-invalid={Boolean(error)}
            onChange={(e) => {
              onChange(e.currentTarget.files?.[0] ?? null);
              // The same file chosen again still counts as a change.
              e.currentTarget.value = '';
            }}
          />
        </VisuallyHidden>
        <Stack align="center" gap={6}>
          {shown ? (
            <Image src={shown} alt={label} h={height} w="auto" fit="contain" />
          ) : (
            <IconPhotoUp size={36} stroke={1.5} color="var(--mantine-color-dimmed)" />
          )}
          {file ? (
            <>
              <Text size="sm" c="teal" fw={500}>
                {t('File Added')}
              </Text>
              <Text size="xs" c="dimmed">
                {file.name}
              </Text>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              {shown ? t('Click to replace the image') : t('Click to upload an image')}
            </Text>
          )}
        </Stack>
      </Box>
    </Input.Wrapper>
  );
}
