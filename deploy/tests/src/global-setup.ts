// Runs once before the test files: installs helm and kube-score if they are missing, outside any
// test's timeout, and hands their paths to the test workers through the environment.
import { tools } from './tools';

export default function globalSetup(): void {
  const found = tools();
  process.env['MEDFOLIO_HELM'] = found.helm;
  process.env['MEDFOLIO_KUBE_SCORE'] = found['kube-score'];
}
