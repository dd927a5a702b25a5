export * from './schema-validation';
export { KUBERNETES_SCHEMA_VERSION } from './schema-models';
export * from './policy-checks';
export * from './network-reach';
export { podTemplates, containersOf, type PodTemplate } from './pod-templates';
