// Types of the rendered objects, from kubernetes-models (an ES module package, hence the
// resolution-mode attribute in this CommonJS code; the imports are erased at build time).
export type { IDeployment as Deployment } from 'kubernetes-models/apps/v1/Deployment' with {
  'resolution-mode': 'import',
};
export type { IJob as Job } from 'kubernetes-models/batch/v1/Job' with { 'resolution-mode': 'import' };
export type { IService as Service } from 'kubernetes-models/v1/Service' with { 'resolution-mode': 'import' };
export type { IServiceAccount as ServiceAccount } from 'kubernetes-models/v1/ServiceAccount' with {
  'resolution-mode': 'import',
};
export type { IIngress as Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress' with {
  'resolution-mode': 'import',
};
export type { IPodDisruptionBudget as PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget' with {
  'resolution-mode': 'import',
};
export type { IHorizontalPodAutoscaler as HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler' with {
  'resolution-mode': 'import',
};
export type { IContainer as Container } from 'kubernetes-models/v1/Container' with { 'resolution-mode': 'import' };
export type { IPodSpec as PodSpec } from 'kubernetes-models/v1/PodSpec' with { 'resolution-mode': 'import' };
