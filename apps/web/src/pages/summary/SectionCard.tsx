import { useId, useState, type FormEvent } from 'react';
import type { FactSource, SummaryFact, SummarySection } from '../../api/summary';
import { Button } from '../../components/Button';
import { FACT_MAX, factTextError, lookOf, SectionIcon, sourceLabel, statusBadge } from './sections';

/** What the review controls of a card ask the page to do (the page sends the calls). */
export interface ReviewActions {
  hide: (fact: SummaryFact, hidden: boolean) => Promise<boolean>;
  edit: (fact: SummaryFact, text: string) => Promise<boolean>;
  remove: (fact: SummaryFact) => Promise<boolean>;
  add: (section: SummarySection, text: string) => Promise<boolean>;
  busy: boolean;
}

const badge = 'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset';
const linkButton =
  'rounded text-left font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900 print:text-slate-900 print:no-underline';

function Sources({ sources, onOpen }: { sources: readonly FactSource[]; onOpen: (source: FactSource) => void }) {
  if (!sources.length) return null;
  return (
    <p className="mt-1 text-sm text-slate-700">
      <span className="sr-only">Sources: </span>
      {sources.map((source, index) => (
        <span key={`${source.document_id}-${source.page ?? 0}-${index}`}>
          {index > 0 && '; '}
          {/* A fetched document is cited by where it came from ("… via MyChart, fetched 27 Nov 2026"); its file name is in the title. */}
          <button type="button" className={linkButton} onClick={() => onOpen(source)} title={source.fetched_from ? `${sourceLabel(source)}${source.quote ? `: ${source.quote}` : ''}` : (source.quote ?? undefined)}>
            {source.fetched_from ?? sourceLabel(source)}
          </button>
        </span>
      ))}
    </p>
  );
}

/** A text box for a fact's text (edit or add) with the 300-character rule, Save and Cancel. */
function FactTextForm({
  label,
  initial,
  submitLabel,
  onSave,
  onCancel,
  busy,
}: {
  label: string;
  initial: string;
  submitLabel: string;
  onSave: (text: string) => Promise<boolean>;
  onCancel: () => void;
  busy: boolean;
}) {
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = factTextError(text);
    setError(problem);
    if (problem) return;
    if (await onSave(text.trim())) onCancel();
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="mt-2 space-y-2 print:hidden" noValidate>
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        id={inputId}
        value={text}
        rows={2}
        onChange={(event) => setText(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className="block w-full rounded-lg border border-slate-400 px-3 py-2 text-slate-900 focus:border-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-600"
      />
      <p className="text-xs text-slate-700">
        {text.trim().length} / {FACT_MAX}
      </p>
      {error && (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" loading={busy}>
          {submitLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function FactItem({
  fact,
  reviewing,
  review,
  onOpen,
}: {
  fact: SummaryFact;
  reviewing: boolean;
  review: ReviewActions;
  onOpen: (source: FactSource) => void;
}) {
  const [editing, setEditing] = useState(false);
  const status = statusBadge(fact);
  return (
    <li className="border-t border-slate-200 py-3 first:border-t-0 break-inside-avoid">
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <span className={fact.hidden ? 'text-slate-600 line-through' : 'text-slate-900'}>{fact.text}</span>
        {status && <span className={`${badge} bg-slate-100 text-slate-800 ring-slate-400`}>{status}</span>}
        {fact.certainty === 'possible' && (
          <span className={`${badge} bg-amber-50 text-amber-900 ring-amber-700`}>possible</span>
        )}
        {fact.hidden && (
          <span className={`${badge} bg-slate-100 text-slate-800 ring-slate-500`}>Hidden from shares</span>
        )}
        {fact.added_by_patient && (
          <span className={`${badge} bg-brand-50 text-brand-900 ring-brand-600`}>Added by you</span>
        )}
        {fact.edited && !fact.added_by_patient && (
          <span className={`${badge} bg-brand-50 text-brand-900 ring-brand-600`}>Edited by you</span>
        )}
      </div>
      {(fact.onset || fact.code) && (
        <p className="mt-1 text-xs text-slate-700">
          {fact.onset && <span>since {fact.onset}</span>}
          {fact.onset && fact.code && ' · '}
          {fact.code && (
            <span>
              {fact.code.system} {fact.code.code}
            </span>
          )}
        </p>
      )}
      <Sources sources={fact.sources} onOpen={onOpen} />
      {reviewing && !editing && (
        <div className="mt-2 flex flex-wrap gap-2 print:hidden">
          <Button
            variant="secondary"
            disabled={review.busy}
            onClick={() => void review.hide(fact, !fact.hidden)}
            aria-label={`${fact.hidden ? 'Show' : 'Hide'}: ${fact.text}`}
          >
            {fact.hidden ? 'Show' : 'Hide'}
          </Button>
          <Button
            variant="secondary"
            disabled={review.busy}
            onClick={() => setEditing(true)}
            aria-label={`Edit: ${fact.text}`}
          >
            Edit
          </Button>
          {fact.added_by_patient && (
            <Button
              variant="secondary"
              disabled={review.busy}
              onClick={() => void review.remove(fact)}
              aria-label={`Remove: ${fact.text}`}
            >
              Remove
            </Button>
          )}
        </div>
      )}
      {reviewing && editing && (
        <FactTextForm
          label="Corrected text"
          initial={fact.text}
          submitLabel="Save"
          busy={review.busy}
          onSave={(text) => review.edit(fact, text)}
          onCancel={() => setEditing(false)}
        />
      )}
    </li>
  );
}

/**
 * One section of the summary: its icon, title and description, then one of three things, never
 * confused: the facts found; "None known" with where that was said; or "Not recorded" (nothing in
 * the documents mentions it, which is not the same as none).
 */
export function SectionCard({
  section,
  reviewing,
  review,
  onOpen,
}: {
  section: SummarySection;
  reviewing: boolean;
  review: ReviewActions;
  onOpen: (source: FactSource) => void;
}) {
  const { icon, description } = lookOf(section);
  const headingId = useId();
  const [adding, setAdding] = useState(false);
  const title = section.title.trim().replace(/:$/, '');
  return (
    <section
      aria-labelledby={headingId}
      className="break-inside-avoid rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 print:shadow-none sm:p-6"
    >
      <div className="flex items-start gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-800">
          <SectionIcon icon={icon} />
        </span>
        <div>
          <h2 id={headingId} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          <p className="text-sm text-slate-700">{description}</p>
        </div>
      </div>
      <div className="mt-3">
        {section.state === 'facts' && section.facts.length > 0 && (
          <ul>
            {section.facts.map((fact) => (
              <FactItem key={fact.id} fact={fact} reviewing={reviewing} review={review} onOpen={onOpen} />
            ))}
          </ul>
        )}
        {section.state === 'none_known' && (
          <div>
            <p className="text-slate-900">
              <span className="font-semibold">None known</span>
              {section.none_known?.text ? `: ${section.none_known.text}` : ''}
            </p>
            <Sources sources={section.none_known?.sources ?? []} onOpen={onOpen} />
          </div>
        )}
        {(section.state === 'not_recorded' || (section.state === 'facts' && section.facts.length === 0)) && (
          <div>
            <p className="font-medium text-slate-700">Not recorded</p>
            <p className="text-sm text-slate-700">Nothing in your documents mentions this.</p>
          </div>
        )}
        {/* Patient-added facts in a "none known" or "not recorded" section come with the facts list. */}
        {section.state !== 'facts' && section.facts.length > 0 && (
          <ul className="mt-2">
            {section.facts.map((fact) => (
              <FactItem key={fact.id} fact={fact} reviewing={reviewing} review={review} onOpen={onOpen} />
            ))}
          </ul>
        )}
      </div>
      {reviewing &&
        (adding ? (
          <FactTextForm
            label={`New entry for ${title}`}
            initial=""
            submitLabel="Add"
            busy={review.busy}
            onSave={(text) => review.add(section, text)}
            onCancel={() => setAdding(false)}
          />
        ) : (
          <Button variant="ghost" className="mt-2 print:hidden" disabled={review.busy} onClick={() => setAdding(true)}>
            Add to {title}
          </Button>
        ))}
    </section>
  );
}
