import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { deploymentsApi } from '../api/deployments.api';
import type { Deployment } from '../api/types';
import { ErrorState } from '../components/states';

/** Delete, confirmed by typing the deployment's name. */
export function DeleteDeployment({ deployment }: { deployment: Deployment }) {
  const [opened, { open, close }] = useDisclosure(false);
  const [typed, setTyped] = useState('');
  const navigate = useNavigate();
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: () => deploymentsApi.remove(deployment.id),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['deployments'] });
      navigate('/console/deployments');
    },
  });
  return (
    <>
      <Button color="red" variant="light" onClick={open}>
        Delete
      </Button>
      <Modal opened={opened} onClose={close} title={`Delete ${deployment.name}?`} centered>
        <Stack>
          <Text size="sm">Its Agent Server stops and its database, threads and runs are removed. This cannot be undone.</Text>
          <TextInput label={`Type ${deployment.name} to confirm`} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} data-autofocus />
          {remove.error && <ErrorState error={remove.error} title="Not deleted" />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Keep it
            </Button>
            <Button color="red" disabled={typed !== deployment.name} loading={remove.isPending} onClick={() => remove.mutate()}>
              Delete deployment
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
