import { Alert, Button, Group, Paper, PasswordInput, Stack, Switch, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { exportsApi } from '../api/exports.api';
import { ApiError } from '../api/http';
import type { CreateDestinationRequest } from '../api/types';

const EMPTY = { displayName: '', bucket: '', prefix: '', region: '', endpoint: '', accessKeyId: '', secretAccessKey: '', addressing: 'auto' };

/**
 * A new S3 destination. The export service test-writes to the bucket before saving; its error (S3's own words) is
 * shown as it comes. Credentials are sent once and never shown again (the API answers only their key names).
 */
export function DestinationForm({ onCreated }: { onCreated?: () => void }) {
  const client = useQueryClient();
  const [form, setForm] = useState(EMPTY);
  const [pathStyle, setPathStyle] = useState(true);
  const create = useMutation({
    mutationFn: (body: CreateDestinationRequest) => exportsApi.createDestination(body),
    onSuccess: () => {
      setForm(EMPTY);
      void client.invalidateQueries({ queryKey: ['destinations'] });
      onCreated?.();
    },
  });
  const errors = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const verbatim = create.error instanceof ApiError && create.error.problems.length === 0 ? create.error.message : create.error && !(create.error instanceof ApiError) ? String(create.error) : undefined;
  const field = (key: keyof typeof EMPTY) => ({ value: form[key], onChange: (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: e.currentTarget.value }) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({
      destination_type: 's3',
      display_name: form.displayName,
      config: {
        bucket_name: form.bucket,
        prefix: form.prefix,
        region: form.region || null,
        endpoint_url: form.endpoint || null,
        config_kwargs_s3: { addressing_style: pathStyle ? 'path' : 'auto' },
      },
      credentials: form.accessKeyId || form.secretAccessKey ? { access_key_id: form.accessKeyId, secret_access_key: form.secretAccessKey } : null,
    });
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate aria-labelledby="new-destination">
      <Stack gap="sm">
        <Title order={3} size="h5" id="new-destination">
          New S3 destination
        </Title>
        {verbatim && (
          <Alert color="red" title="The destination was refused" role="alert" data-testid="destination-error">
            {verbatim}
          </Alert>
        )}
        <TextInput label="Display name" required {...field('displayName')} error={errors.display_name} />
        <Group grow align="flex-start">
          <TextInput label="Bucket" required {...field('bucket')} error={errors['config.bucket_name']} />
          <TextInput label="Prefix" description="Folder inside the bucket." required {...field('prefix')} error={errors['config.prefix']} />
        </Group>
        <Group grow align="flex-start">
          <TextInput label="Endpoint URL" placeholder="https://s3.example.com (empty: AWS)" {...field('endpoint')} error={errors['config.endpoint_url']} />
          <TextInput label="Region" placeholder="us-east-1" {...field('region')} error={errors['config.region']} />
        </Group>
        <Switch label="Path-style addressing (MinIO, most S3-compatible servers)" checked={pathStyle} onChange={(e) => setPathStyle(e.currentTarget.checked)} />
        <Group grow align="flex-start">
          <TextInput label="Access key ID" autoComplete="off" {...field('accessKeyId')} error={errors['credentials.access_key_id']} />
          <PasswordInput label="Secret access key" autoComplete="new-password" {...field('secretAccessKey')} error={errors['credentials.secret_access_key']} />
        </Group>
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            Test and save destination
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

