// A small NetworkPolicy evaluator: given the rendered policies, may a connection from one endpoint
// to another on a port happen? It follows the Kubernetes rules: a pod selected by no policy of a
// direction is open in that direction; a selected pod accepts only what some rule allows; rules
// add up; a connection needs both the sender's egress and the receiver's ingress to allow it.
// (Not modelled: named ports, endPort, and traffic to the pod's own node, which CNIs allow.)
import type { K8sObject } from './helm';

type Labels = Record<string, string>;

interface LabelSelector {
  matchLabels?: Labels;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}

interface PolicyPort {
  port?: number | string;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
}

interface Rule {
  from?: Peer[];
  to?: Peer[];
  ports?: PolicyPort[];
}

export interface NetworkPolicy extends K8sObject {
  spec: {
    podSelector: LabelSelector;
    policyTypes?: ('Ingress' | 'Egress')[];
    ingress?: Rule[] | null;
    egress?: Rule[] | null;
  };
}

/** A pod (in a namespace, with labels) or an address outside the cluster. */
export type Endpoint = { pod: true; namespace: string; labels: Labels; ip?: string } | { pod: false; ip: string };

export function pod(namespace: string, labels: Labels, ip = '10.244.1.10'): Endpoint {
  return { pod: true, namespace, labels, ip };
}

export function external(ip: string): Endpoint {
  return { pod: false, ip };
}

function matchesSelector(selector: LabelSelector | undefined, labels: Labels): boolean {
  if (!selector) return true;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (labels[key] !== value) return false;
  }
  for (const expression of selector.matchExpressions ?? []) {
    const value = labels[expression.key];
    const has = value !== undefined;
    const values = expression.values ?? [];
    const ok =
      expression.operator === 'In'
        ? has && values.includes(value)
        : expression.operator === 'NotIn'
          ? !has || !values.includes(value)
          : expression.operator === 'Exists'
            ? has
            : !has;
    if (!ok) return false;
  }
  return true;
}

function ipToNumber(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function inCidr(ip: string, cidr: string): boolean {
  const [base = '', bits = '32'] = cidr.split('/');
  // Compare the leading `bits` bits by integer division (bitwise operators stop at 2^31).
  const block = 2 ** (32 - Number(bits));
  return Math.floor(ipToNumber(ip) / block) === Math.floor(ipToNumber(base) / block);
}

function namespaceLabels(namespace: string): Labels {
  return { 'kubernetes.io/metadata.name': namespace };
}

function matchesPeer(peer: Peer, endpoint: Endpoint, policyNamespace: string): boolean {
  if (peer.ipBlock) {
    const ip = endpoint.ip;
    if (!ip) return false;
    return inCidr(ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((cidr) => inCidr(ip, cidr));
  }
  // Pod and namespace selectors select pods only, never addresses outside the cluster.
  if (!endpoint.pod) return false;
  if (peer.namespaceSelector) {
    if (!matchesSelector(peer.namespaceSelector, namespaceLabels(endpoint.namespace))) return false;
  } else if (endpoint.namespace !== policyNamespace) {
    return false;
  }
  return matchesSelector(peer.podSelector, endpoint.labels);
}

function matchesPorts(ports: PolicyPort[] | undefined, port: number, protocol: string): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some((p) => (p.port === undefined || Number(p.port) === port) && (p.protocol ?? 'TCP') === protocol);
}

function selects(policy: NetworkPolicy, endpoint: Endpoint): boolean {
  return (
    endpoint.pod &&
    endpoint.namespace === policy.metadata.namespace &&
    matchesSelector(policy.spec.podSelector, endpoint.labels)
  );
}

function policyTypes(policy: NetworkPolicy): string[] {
  if (policy.spec.policyTypes) return policy.spec.policyTypes;
  return policy.spec.egress ? ['Ingress', 'Egress'] : ['Ingress'];
}

function directionAllows(
  policies: NetworkPolicy[],
  subject: Endpoint,
  peer: Endpoint,
  direction: 'Ingress' | 'Egress',
  port: number,
  protocol: string,
): boolean {
  const relevant = policies.filter((policy) => selects(policy, subject) && policyTypes(policy).includes(direction));
  if (relevant.length === 0) return true;
  return relevant.some((policy) => {
    const rules = (direction === 'Ingress' ? policy.spec.ingress : policy.spec.egress) ?? [];
    return rules.some((rule) => {
      const peers = direction === 'Ingress' ? rule.from : rule.to;
      const peerOk =
        !peers || peers.length === 0 || peers.some((p) => matchesPeer(p, peer, policy.metadata.namespace ?? ''));
      return peerOk && matchesPorts(rule.ports, port, protocol);
    });
  });
}

/** Whether the policies let `from` open a connection to `to` on port/protocol. */
export function allowed(
  policies: NetworkPolicy[],
  from: Endpoint,
  to: Endpoint,
  port: number,
  protocol: 'TCP' | 'UDP' = 'TCP',
): boolean {
  const egress = !from.pod || directionAllows(policies, from, to, 'Egress', port, protocol);
  const ingress = !to.pod || directionAllows(policies, to, from, 'Ingress', port, protocol);
  return egress && ingress;
}
