import { Alert, Button, Checkbox, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { deploymentsApi } from '../api/deployments.api';
import { ApiError } from '../api/http';
import type { Deployment, PatchDeploymentRequest, SourceRevisionConfig } from '../api/types';
import { errorText } from '../components/states';
import { SecretsEditor, type SecretRow } from './secrets-editor';

/** PATCH of the git ref, the langgraph.json path and the secrets (which the API replaces as a whole). */
export function EditDeploymentForm({ deployment }: { deployment: Deployment }) {
  const client = useQueryClient();
  const source = deployment.source_revision_config as SourceRevisionConfig;
  const [ref, setRef] = useState(source.repo_ref ?? '');
  const [configPath, setConfigPath] = useState(source.langgraph_config_path ?? 'langgraph.json');
  const [replaceSecrets, setReplaceSecrets] = useState(false);
  const [secrets, setSecrets] = useState<SecretRow[]>(deployment.secrets.map((s) => ({ name: s.name, value: '' })));
  const patch = useMutation({
    mutationFn: (body: PatchDeploymentRequest) => deploymentsApi.patch(deployment.id, body),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['deployment', deployment.id] });
      void client.invalidateQueries({ queryKey: ['revisions', deployment.id] });
    },
  });
  const errors = patch.error instanceof ApiError ? patch.error.fieldErrors() : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    patch.mutate({
      source_revision_config: { repo_ref: ref.trim(), langgraph_config_path: configPath.trim() || null },
      ...(replaceSecrets ? { secrets: secrets.filter((s) => s.name || s.value) } : {}),
    });
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate>
      <Stack>
        <Title order={3} size="h4">
          Settings
        </Title>
        {patch.isSuccess && (
          <Alert color="green" role="status">
            Saved. A change of ref, path or secrets builds a new revision.
          </Alert>
        )}
        {patch.error && !(patch.error instanceof ApiError && patch.error.problems.length) && <Alert color="red" role="alert">{errorText(patch.error)}</Alert>}
        <Group grow align="flex-start">
          <TextInput label="Git ref" value={ref} onChange={(e) => setRef(e.currentTarget.value)} error={errors['source_revision_config.repo_ref']} />
          <TextInput label="langgraph.json path" value={configPath} onChange={(e) => setConfigPath(e.currentTarget.value)} error={errors['source_revision_config.langgraph_config_path']} />
        </Group>
        <Text size="sm" c="dimmed">
          Secrets now: {deployment.secrets.length ? deployment.secrets.map((s) => s.name).join(', ') : 'none'} (values are never shown).
        </Text>
        <Checkbox label="Replace the secrets (every value must be entered again)" checked={replaceSecrets} onChange={(e) => setReplaceSecrets(e.currentTarget.checked)} />
        {replaceSecrets && <SecretsEditor rows={secrets} onChange={setSecrets} errors={errors} />}
        <Group justify="flex-end">
          <Button type="submit" loading={patch.isPending}>
            Save and redeploy
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
