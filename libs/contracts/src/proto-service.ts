import type * as grpc from '@grpc/grpc-js';
import type { ClientConstructor, ServiceImplementation } from '@platform/grpc';

/** One gRPC service of the platform, loaded from `proto/`, with its generated types attached. */
export interface ProtoService<
  Definition extends grpc.ServiceDefinition,
  Client extends grpc.Client,
  Handlers extends grpc.UntypedServiceImplementation,
> {
  /** Full name, e.g. `controlplane.v1.Deployments` (also its name for health checks). */
  name: string;
  definition: Definition;
  /** Pass to `createClient(Client, address, ...)` of `@platform/grpc`. */
  Client: ClientConstructor<Client>;
  /** Pairs handlers with the definition for `startGrpcServer({ services: [...] })`, type-checked. */
  implement(handlers: Handlers): ServiceImplementation & { definition: Definition; handlers: Handlers };
}

/** Wraps a loaded client constructor (typed by the generated `ProtoGrpcType`) as a `ProtoService`. */
export function protoService<
  Definition extends grpc.ServiceDefinition,
  Client extends grpc.Client,
  Handlers extends grpc.UntypedServiceImplementation,
>(name: string, Ctor: ClientConstructor<Client> & { service: Definition }): ProtoService<Definition, Client, Handlers> {
  return {
    name,
    definition: Ctor.service,
    Client: Ctor,
    implement: (handlers) => ({ definition: Ctor.service, handlers }),
  };
}
