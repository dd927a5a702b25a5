export { nonPublicRange, embeddedIpv4, type NonPublicRange } from './address-class';
export { parseIp, parseCidr, bareHost, type Cidr, type IpAddress } from './ip-address';
export { EgressPolicy, EgressRefusedError, EgressUnresolvedError, type EgressPolicyOptions, type Resolver, type ResolvedAddress } from './egress-policy';
export { egressAgents, type EgressAgents } from './egress-agents';
export { egressPost, type EgressPostOptions } from './egress-post';
export { egressEnv, egressPolicyFromConfig, type EgressConfig } from './egress-config';
