import { useEffect, useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useLocation, useNavigate } from 'react-router';
import {
  type ConnectionView,
  type EndpointView,
  useConnectionsDeleteMutation,
  useConnectionsEndpointsQuery,
  useConnectionsListQuery,
  useConnectionsStartMutation,
  useConnectionsSyncMutation,
} from '../../api/connections';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { TextField } from '../../components/fields';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';
import { useViewOnlyReason } from '../../components/Viewing';
import { leave } from './leave';
import { ReceiveLinkPanel } from './ReceiveLinkPanel';

/** How long the search waits after the last key before asking the directory. */
export const SEARCH_DELAY_MS = 300;
/** How often the list is read again while a connection is fetching records. */
export const LIST_POLL_MS = 3000;

/** What the callback page (or a disconnect) leaves for this page to say. */
export interface ConnectionsPageState {
  connected?: string;
}

const card = 'rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6';

/** `value`, once it has stopped changing for `delay` ms. */
function useDebounced(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** A date and time in the reader's locale, with the exact instant for machines. */
function When({ iso }: { iso: string }) {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
  return <time dateTime={iso}>{text}</time>;
}

/** Sends the browser to the hospital's sign-in page (the SMART authorization URL the service built). */
function useConnect() {
  const [start, { isLoading }] = useConnectionsStartMutation();
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const connect = async (endpointId: string) => {
    setError(null);
    setPending(endpointId);
    try {
      const { authorize_url } = await start({ body: { endpoint_id: endpointId } }).unwrap();
      leave.to(authorize_url);
    } catch (failure) {
      setError(errorMessage(failure));
      setPending(null);
    }
  };
  return { connect, pending: isLoading || pending ? pending : null, error, clearError: () => setError(null) };
}

function EndpointSearch({ connect, pending }: { connect: (id: string) => void; pending: string | null }) {
  const [text, setText] = useState('');
  const q = useDebounced(text.trim(), SEARCH_DELAY_MS);
  const { data, error, isFetching } = useConnectionsEndpointsQuery(q ? { q } : skipToken);
  const results = q ? data : undefined;
  return (
    <section aria-labelledby="connect-search" className={card}>
      <h2 id="connect-search" className="text-lg font-semibold text-slate-900">
        Find your hospital or clinic
      </h2>
      <form role="search" className="mt-3" onSubmit={(event) => event.preventDefault()}>
        <TextField
          label="Hospital, clinic or city"
          type="search"
          autoComplete="off"
          maxLength={100}
          hint="Type part of the name or the city."
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </form>
      <div aria-live="polite" className="mt-4">
        {q && isFetching && !results && <p className="text-sm text-slate-600">Searching…</p>}
        {q && error && <Notice tone="error">{errorMessage(error)}</Notice>}
        {results && results.length === 0 && <p className="text-sm text-slate-700">No hospital or clinic in the directory matches “{q}”.</p>}
        {results && results.length > 0 && (
          <ul aria-label="Search results" className="divide-y divide-slate-200">
            {results.map((endpoint) => (
              <EndpointRow key={endpoint.id} endpoint={endpoint} pending={pending} onConnect={() => connect(endpoint.id)} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function EndpointRow({ endpoint, pending, onConnect }: { endpoint: EndpointView; pending: string | null; onConnect: () => void }) {
  const details = [endpoint.locations.join('; '), endpoint.portal].filter(Boolean).join(' · ');
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="break-words font-medium text-slate-900">{endpoint.name}</p>
        {details && <p className="break-words text-sm text-slate-600">{details}</p>}
        {endpoint.aliases.length > 0 && <p className="break-words text-sm text-slate-600">Also known as {endpoint.aliases.join(', ')}</p>}
      </div>
      <Button className="shrink-0" loading={pending === endpoint.id} disabled={pending !== null} onClick={onConnect}>
        Connect<span className="sr-only"> {endpoint.name}</span>
      </Button>
    </li>
  );
}

/**
 * A connection as listed, with what the service adds once connections sync (a fetch in progress, the
 * last fetch's problem, the records kept per FHIR resource type), each shown only when given.
 */
export type ListedConnection = ConnectionView & Partial<{ sync_state: 'idle' | 'syncing'; last_error: string | null; counts: Record<string, number> }>;

/**
 * What a fetch's FHIR resource types are in a patient's words (singular, plural), in the order shown;
 * both medication types are "medicines". A type not listed here is shown by its FHIR name.
 */
const PLAIN_TYPES: readonly { types: readonly string[]; one: string; many: string }[] = [
  { types: ['AllergyIntolerance'], one: 'allergy', many: 'allergies' },
  { types: ['Condition'], one: 'condition', many: 'conditions' },
  { types: ['MedicationRequest', 'MedicationStatement'], one: 'medicine', many: 'medicines' },
  { types: ['Immunization'], one: 'immunization', many: 'immunizations' },
  { types: ['Observation'], one: 'test result or vital sign', many: 'test results and vital signs' },
  { types: ['Procedure'], one: 'procedure', many: 'procedures' },
  { types: ['DocumentReference'], one: 'document', many: 'documents' },
  { types: ['Binary'], one: 'attached file', many: 'attached files' },
  { types: ['Patient'], one: 'patient profile', many: 'patient profiles' },
];

/**
 * "42 records fetched: 3 conditions, 39 test results and vital signs.", or null when the service
 * gives no counts.
 */
export function countsText(counts: Record<string, number> | undefined): string | null {
  if (!counts) return null;
  const kept = Object.entries(counts).filter(([, count]) => count > 0);
  const total = kept.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return 'No records fetched yet.';
  const parts: string[] = [];
  for (const { types, one, many } of PLAIN_TYPES) {
    const count = kept.filter(([type]) => types.includes(type)).reduce((sum, [, n]) => sum + n, 0);
    if (count > 0) parts.push(`${count} ${count === 1 ? one : many}`);
  }
  const known = new Set(PLAIN_TYPES.flatMap((entry) => entry.types));
  for (const [type, count] of kept.filter(([type]) => !known.has(type)).sort(([a], [b]) => a.localeCompare(b))) parts.push(`${type} ${count}`);
  return `${total} ${total === 1 ? 'record' : 'records'} fetched: ${parts.join(', ')}.`;
}

/** The state of a connection in plain words. */
export function ConnectionState({ connection }: { connection: ListedConnection }) {
  if (connection.status === 'reconnect') {
    return <p className="text-sm font-medium text-amber-900">The clinic's sign-in expired: reconnect to keep getting your records.</p>;
  }
  const counts = countsText(connection.counts);
  return (
    <>
      <p className="text-sm text-slate-700">
        {connection.status === 'connected' ? <span className="font-medium text-brand-800">Connected</span> : <span className="font-medium">{String(connection.status)}</span>} since{' '}
        <When iso={connection.connected_at} />.{' '}
        {connection.sync_state === 'syncing' ? (
          'Fetching records…'
        ) : connection.last_sync_at ? (
          <>
            Last synced <When iso={connection.last_sync_at} />.
          </>
        ) : (
          'Not synced yet.'
        )}
      </p>
      {counts && <p className="text-sm text-slate-700">{counts}</p>}
      {connection.last_error && <p className="text-sm font-medium text-red-800">{connection.last_error}</p>}
    </>
  );
}

/** "Sync now": fetches the records again (the service answers at once with the fetch running; the list follows it). */
function SyncButton({ connection }: { connection: ListedConnection }) {
  const [sync, { isLoading }] = useConnectionsSyncMutation();
  const [error, setError] = useState<string | null>(null);
  const running = connection.sync_state === 'syncing';
  return (
    <>
      <Button
        variant="secondary"
        loading={isLoading || running}
        onClick={async () => {
          setError(null);
          try {
            await sync({ connectionId: connection.id }).unwrap();
          } catch (failure) {
            setError(errorMessage(failure));
          }
        }}
      >
        Sync now<span className="sr-only"> {connection.name}</span>
      </Button>
      {error && (
        <p role="alert" className="basis-full text-sm font-medium text-red-800">
          {error}
        </p>
      )}
    </>
  );
}

function ConnectionRow({ connection, pending, onReconnect, onDisconnect, readOnly }: { connection: ListedConnection; pending: string | null; onReconnect: () => void; onDisconnect: () => void; readOnly: boolean }) {
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <h3 className="break-words font-semibold text-slate-900">{connection.name}</h3>
        <ConnectionState connection={connection} />
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        {readOnly ? null : connection.status === 'reconnect' && (
          <Button loading={pending === connection.endpoint_id} disabled={pending !== null} onClick={onReconnect}>
            Reconnect<span className="sr-only"> {connection.name}</span>
          </Button>
        )}
        {!readOnly && connection.status === 'connected' && <SyncButton connection={connection} />}
        {!readOnly && (
          <Button variant="secondary" onClick={onDisconnect}>
            Disconnect<span className="sr-only"> {connection.name}</span>
          </Button>
        )}
      </div>
    </li>
  );
}

function DisconnectDialog({ connection, onClose, onDone }: { connection: ConnectionView | null; onClose: () => void; onDone: (message: string) => void }) {
  const [remove, { isLoading }] = useConnectionsDeleteMutation();
  const [error, setError] = useState<string | null>(null);
  const name = connection?.name ?? '';
  const confirm = async () => {
    if (!connection) return;
    setError(null);
    try {
      const reply = await remove({ connectionId: connection.id }).unwrap();
      onDone(
        reply.revoked_at_source
          ? `Disconnected from ${name}. ${name} confirmed that Medfolio's access was cancelled.`
          : `Disconnected from ${name}. ${name} did not confirm cancelling Medfolio's access: you can also remove Medfolio in ${name}'s patient portal.`,
      );
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <Dialog
      open={connection !== null}
      title={`Disconnect ${name}?`}
      closeLabel="Cancel"
      onClose={() => {
        setError(null);
        onClose();
      }}
      actions={
        <Button variant="danger" loading={isLoading} onClick={confirm}>
          Disconnect
        </Button>
      }
    >
      <p>
        Medfolio will stop getting records from {name}. It asks the hospital to cancel Medfolio's access (where the hospital offers that), then
        deletes the sign-in it kept and its own copy of the records fetched through this connection.
      </p>
      <p className="mt-2">
        Files already added to your documents from this connection (their names start with “{name}”) stay there until you delete them. Your
        records at the hospital itself are not changed. You can connect again later.
      </p>
      {error && (
        <div className="mt-3">
          <Notice tone="error">{error}</Notice>
        </div>
      )}
    </Dialog>
  );
}

function ConnectionsList({ connect, pending, onMessage, readOnly }: { connect: (id: string) => void; pending: string | null; onMessage: (message: string) => void; readOnly: boolean }) {
  // While a connection is fetching records, the list is read again every few seconds to show the outcome.
  const [polling, setPolling] = useState(false);
  const { data, error, isLoading } = useConnectionsListQuery(undefined, { pollingInterval: polling ? LIST_POLL_MS : 0 });
  useEffect(() => setPolling(Boolean(data?.some((connection: ListedConnection) => connection.sync_state === 'syncing'))), [data]);
  const [disconnecting, setDisconnecting] = useState<ConnectionView | null>(null);
  return (
    <section aria-labelledby="connections-list" className={card}>
      <h2 id="connections-list" className="text-lg font-semibold text-slate-900">
        Your connections
      </h2>
      {isLoading && <PageLoading label="Loading your connections…" />}
      {error && (
        <div className="mt-3">
          <Notice tone="error">{errorMessage(error)}</Notice>
        </div>
      )}
      {data && data.length === 0 && <p className="mt-2 text-sm text-slate-700">No hospital or clinic connected yet. Find yours below to connect it.</p>}
      {data && data.length > 0 && (
        <ul className="divide-y divide-slate-200">
          {data.map((connection) => (
            <ConnectionRow
              key={connection.id}
              connection={connection}
              pending={pending}
              onReconnect={() => connect(connection.endpoint_id)}
              onDisconnect={() => setDisconnecting(connection)}
              readOnly={readOnly}
            />
          ))}
        </ul>
      )}
      <DisconnectDialog
        connection={disconnecting}
        onClose={() => setDisconnecting(null)}
        onDone={(message) => {
          setDisconnecting(null);
          onMessage(message);
        }}
      />
    </section>
  );
}

/**
 * "Connect a hospital or clinic": the directory search (each result sends the browser to that
 * hospital's own sign-in page), and the patient's connections with their state, Reconnect when the
 * hospital's sign-in expired, and Disconnect.
 */
export default function ConnectionsPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const arrived = (location.state as ConnectionsPageState | null)?.connected;
  const [message, setMessage] = useState<string | null>(arrived ? `Connected to ${arrived}.` : null);
  const { connect, pending, error, clearError } = useConnect();
  const viewOnly = useViewOnlyReason();

  // The success message from the callback page is shown once: a reload does not repeat it.
  useEffect(() => {
    if (arrived) void navigate(location.pathname, { replace: true, state: null });
  }, [arrived, location.pathname, navigate]);

  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Connect a hospital or clinic</h1>
      <p className="mt-2 text-slate-700">
        Bring your records from a hospital or clinic's patient portal into Medfolio. You sign in on the hospital's own site, so Medfolio never
        sees your portal password, and you can disconnect at any time.
      </p>
      <div className="mt-6 space-y-6">
        {message && <Notice>{message}</Notice>}
        {error && (
          <div className="space-y-2">
            <Notice tone="error">{error}</Notice>
            <Button variant="ghost" onClick={clearError}>
              Dismiss
            </Button>
          </div>
        )}
        <ConnectionsList
          connect={(id) => {
            setMessage(null);
            void connect(id);
          }}
          pending={pending}
          onMessage={setMessage}
          readOnly={viewOnly !== null}
        />
        {/* A view-only caregiver sees the connections, not the controls (the server refuses them too). */}
        {viewOnly ? (
          <Notice tone="info">{viewOnly} Connecting, syncing, disconnecting and receiving links are off.</Notice>
        ) : (
          <>
            <EndpointSearch
              connect={(id) => {
                setMessage(null);
                void connect(id);
              }}
              pending={pending}
            />
            <ReceiveLinkPanel />
          </>
        )}
      </div>
    </div>
  );
}
