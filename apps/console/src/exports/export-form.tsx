import { Alert, Button, Group, MultiSelect, NumberInput, Paper, Select, Stack, Switch, TextInput, Title } from '@mantine/core';
import { EXPORTABLE_RUN_FIELDS } from '@platform/contracts/run-fields';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { exportsApi } from '../api/exports.api';
import { ApiError } from '../api/http';
import { listProjects } from '../api/tracing.api';
import type { CreateExportRequest, Destination } from '../api/types';
import { errorText } from '../components/states';

/** `datetime-local` wants local time without a zone. */
const localInput = (date: Date) => new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

/** A one-off export (start → end) or a schedule (every N hours from start), with its filter and fields. */
export function ExportForm({ destinations }: { destinations: Destination[] }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const projects = useQuery({ queryKey: ['projects'], queryFn: listProjects });
  const [destinationId, setDestinationId] = useState<string | null>(destinations[0]?.id ?? null);
  const [projectId, setProjectId] = useState<string | null>(null);
  const [start, setStart] = useState(localInput(new Date(Date.now() - 24 * 3600_000)));
  const [end, setEnd] = useState(localInput(new Date(Date.now() + 3600_000)));
  const [scheduled, setScheduled] = useState(false);
  const [intervalHours, setIntervalHours] = useState<number | string>(24);
  const [filter, setFilter] = useState('');
  const [fields, setFields] = useState<string[]>([]);
  const create = useMutation({
    mutationFn: (body: CreateExportRequest) => exportsApi.create(body),
    onSuccess: (created) => {
      void client.invalidateQueries({ queryKey: ['exports'] });
      navigate(`/console/exports/${created.id}`);
    },
  });
  const errors = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({
      bulk_export_destination_id: destinationId ?? '',
      session_id: projectId ?? '',
      start_time: new Date(start).toISOString(),
      ...(scheduled ? { interval_hours: Number(intervalHours) } : { end_time: new Date(end).toISOString() }),
      filter: filter.trim() || null,
      export_fields: fields.length ? (fields as CreateExportRequest['export_fields']) : null,
    });
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate aria-labelledby="new-export">
      <Stack gap="sm">
        <Title order={3} size="h5" id="new-export">
          New bulk export
        </Title>
        {create.error && !(create.error instanceof ApiError && create.error.problems.length) && (
          <Alert color="red" role="alert">
            {errorText(create.error)}
          </Alert>
        )}
        <Group grow align="flex-start">
          <Select label="Destination" data={destinations.map((d) => ({ value: d.id, label: d.display_name }))} value={destinationId} onChange={setDestinationId} error={errors.bulk_export_destination_id} required />
          <Select
            label="Tracing project"
            data={(projects.data ?? []).map((p) => ({ value: p.id, label: p.name ?? p.id }))}
            value={projectId}
            onChange={setProjectId}
            error={errors.session_id ?? (projects.error ? errorText(projects.error) : undefined)}
            placeholder={projects.isPending ? 'Loading…' : 'Pick a project'}
            searchable
            required
          />
        </Group>
        <Switch label="Scheduled (a new export every interval, from the start time on)" checked={scheduled} onChange={(e) => setScheduled(e.currentTarget.checked)} />
        <Group grow align="flex-start">
          <TextInput type="datetime-local" label="Start" value={start} onChange={(e) => setStart(e.currentTarget.value)} error={errors.start_time} required />
          {scheduled ? (
            <NumberInput label="Every (hours)" min={1} max={168} value={intervalHours} onChange={setIntervalHours} error={errors.interval_hours} />
          ) : (
            <TextInput type="datetime-local" label="End" value={end} onChange={(e) => setEnd(e.currentTarget.value)} error={errors.end_time} required />
          )}
        </Group>
        <TextInput label="Filter (optional)" placeholder='eq(run_type, "llm")' value={filter} onChange={(e) => setFilter(e.currentTarget.value)} error={errors.filter} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} />
        <MultiSelect label="Fields (empty: all)" data={[...EXPORTABLE_RUN_FIELDS]} value={fields} onChange={setFields} error={errors.export_fields} searchable clearable />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending} disabled={!destinations.length}>
            Start export
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
