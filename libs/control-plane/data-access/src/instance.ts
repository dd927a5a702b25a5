// The instances the local driver started, as it remembers them (the instances repository's records).
export type InstanceState = 'starting' | 'serving' | 'draining';

export interface InstanceRecord {
  id: string;
  deploymentId: string;
  revisionId: string;
  driver: string;
  state: InstanceState;
  url: string | null;
  pid: number | null;
}
