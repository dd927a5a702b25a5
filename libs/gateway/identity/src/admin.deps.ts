import { NotAllowedError } from '@platform/errors';
import type { Caller } from './authenticate.usecase';

export function requireAdmin(caller: Caller): void {
  if (caller.key.role !== 'admin') throw new NotAllowedError('This operation needs an admin API key');
}
