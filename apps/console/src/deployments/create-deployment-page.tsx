import { Alert, Button, Group, Paper, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { deploymentsApi } from '../api/deployments.api';
import { ApiError } from '../api/http';
import type { CreateDeploymentRequest } from '../api/types';
import { PageHeader } from '../components/page-header';
import { errorText } from '../components/states';
import { SecretsEditor, type SecretRow } from './secrets-editor';

/** A deployment from a git repository; the API's validation errors appear at their field. */
export function CreateDeploymentPage() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [form, setForm] = useState({ name: '', repoUrl: '', ref: 'main', configPath: 'langgraph.json' });
  const [secrets, setSecrets] = useState<SecretRow[]>([]);
  const create = useMutation({
    mutationFn: (body: CreateDeploymentRequest) => deploymentsApi.create(body),
    onSuccess: (deployment) => {
      void client.invalidateQueries({ queryKey: ['deployments'] });
      navigate(`/console/deployments/${deployment.id}`);
    },
  });
  const errors = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const shownAtFields = create.error instanceof ApiError && create.error.problems.length > 0;
  const field = (key: keyof typeof form) => ({
    value: form[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: e.currentTarget.value }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({
      name: form.name.trim(),
      source: 'github',
      source_config: { repo_url: form.repoUrl.trim() },
      source_revision_config: { repo_ref: form.ref.trim(), langgraph_config_path: form.configPath.trim() || null },
      secrets: secrets.filter((s) => s.name || s.value),
    });
  };
  return (
    <>
      <PageHeader title="New deployment" description="Built from a git repository holding a langgraph.json." />
      <Paper withBorder p="md" maw={720} component="form" onSubmit={submit} noValidate>
        <Stack>
          {create.error && !shownAtFields && <Alert color="red" role="alert">{errorText(create.error)}</Alert>}
          {shownAtFields && (
            <Alert color="red" role="alert" title="The deployment was not created">
              Fix the fields marked below.
            </Alert>
          )}
          <TextInput label="Name" description="Letters, digits, '.', '_' and '-'." required {...field('name')} error={errors.name} />
          <TextInput label="Repository URL" placeholder="https://github.com/acme/agent.git" required {...field('repoUrl')} error={errors['source_config.repo_url']} />
          <Group grow align="flex-start">
            <TextInput label="Git ref" description="Branch, tag or commit." required {...field('ref')} error={errors['source_revision_config.repo_ref']} />
            <TextInput label="langgraph.json path" description="Relative to the repository root." {...field('configPath')} error={errors['source_revision_config.langgraph_config_path']} />
          </Group>
          <SecretsEditor rows={secrets} onChange={setSecrets} errors={errors} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => navigate('/console/deployments')}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create deployment
            </Button>
          </Group>
        </Stack>
      </Paper>
    </>
  );
}
