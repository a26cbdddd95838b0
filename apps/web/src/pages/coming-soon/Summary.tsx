import { useParams } from 'react-router';
import { ComingSoon } from './ComingSoon';

/** /summary/{id} (View Summary, the QR code's link, the wallet preview's sample) until the summary page lands. */
export default function SummaryComingSoon() {
  const { id } = useParams();
  const sample = id === 'sample';
  return (
    <ComingSoon
      title={sample ? 'The sample summary' : 'The medical summary'}
      links={[
        { to: '/', label: 'Back to Medfolio' },
        { to: '/wallet-preview', label: 'See the wallet preview' },
      ]}
    >
      <p>
        Medfolio will read the documents you upload and build a short medical summary from them: conditions, medicines,
        allergies and results, each with the document it comes from. This address is where you, or a doctor you share the
        link or QR code with, will read it.
      </p>
      <p>The summary is not ready yet. Your documents are kept safely meanwhile, and this page will show it once it is.</p>
    </ComingSoon>
  );
}
