import { useId, useState, type FormEvent } from 'react';
import type { OrgTrust } from '../../../../engine/api';
import { Badge } from '../../components/Badge';
import { toast } from '../../components/toast-store';
import { useQuery } from '../../server-state/use-query';
import { valueOf, write } from '../../server-state/write';

/**
 * For an org that came from a bundle: where it came from, what the bundle said it would start and
 * contact (and anything the org would do now that the bundle did not say), and the secrets it needs
 * that are not on this computer, each with a place to paste it.
 */
export function BundleOriginSection({ trust, stored }: { trust: OrgTrust; stored: Set<string> | null }) {
  const headingId = useId();
  const { result } = useQuery('bundle.origin', {});
  const origin = result?.ok ? result.value.origin : null;
  if (!origin) return null;
  const { manifest } = origin;
  const said = (kind: 'program' | 'address') => [
    ...new Set(manifest.reach.filter((item) => item.kind === kind).map((item) => item.subject)),
  ];
  const unsaid = [
    ...new Set(
      trust.reach.items
        .filter(
          (item) =>
            !manifest.reach.some((listed) => listed.kind === item.kind && listed.subject === item.subject),
        )
        .map((item) => item.subject),
    ),
  ];
  const fileName = origin.bundleFile.split(/[\\/]/).at(-1) ?? origin.bundleFile;
  return (
    <section className="trust-section trust-bundle" aria-labelledby={headingId}>
      <h3 id={headingId}>Where this org comes from</h3>
      <p className="trust-explanation">
        It was imported from the bundle <strong>{fileName}</strong>, made {dateWords(manifest.createdAt)} from
        “{manifest.orgName}”. A bundle carries no secrets: the ones it needs are named below.
      </p>
      <BundleList title="Programs the bundle says it starts" items={said('program')} />
      <BundleList title="Places the bundle says it contacts" items={said('address')} />
      {unsaid.length > 0 && (
        <p className="trust-notice" role="note">
          This org now names things its bundle did not list: {unsaid.join(', ')}. Someone changed it after it
          was imported.
        </p>
      )}
      <MissingSecrets names={manifest.secrets} stored={stored} />
    </section>
  );
}

function BundleList({ title, items }: { title: string; items: string[] }) {
  const headingId = useId();
  if (items.length === 0) return null;
  return (
    <>
      <h4 id={headingId} className="trust-bundle-title">
        {title}
      </h4>
      <ul className="trust-lines" aria-labelledby={headingId}>
        {items.map((item) => (
          <li key={item} className="trust-line">
            <code className="trust-subject">{item}</code>
          </li>
        ))}
      </ul>
    </>
  );
}

function MissingSecrets({ names, stored }: { names: string[]; stored: Set<string> | null }) {
  const headingId = useId();
  if (names.length === 0 || !stored) return null;
  return (
    <>
      <h4 id={headingId} className="trust-bundle-title">
        Secrets it needs
      </h4>
      <ul className="trust-lines" aria-labelledby={headingId}>
        {names.map((name) => (
          <li key={name} className="trust-line trust-bundle-secret">
            <code className="trust-subject">{name}</code>
            {stored.has(name) ? (
              <Badge tone="ok">Stored on this computer</Badge>
            ) : (
              <>
                <Badge tone="neutral">Missing</Badge>
                <SetSecretForm name={name} />
              </>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

function SetSecretForm({ name }: { name: string }) {
  const [value, setValue] = useState('');
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const changed = await write(
      'secrets.set',
      { name, value },
      { progress: `Saving ${name}…`, failure: `Could not save ${name}` },
    ).then(valueOf);
    setValue('');
    if (changed) toast.success(`Set ${name}`);
  };
  return (
    <form className="trust-bundle-form" onSubmit={(event) => void save(event)}>
      <label>
        <span className="visually-hidden">Value for {name}</span>
        <input
          type="password"
          autoComplete="off"
          value={value}
          placeholder="Paste the value"
          onChange={(event) => setValue(event.target.value)}
        />
      </label>
      <button type="submit" disabled={value === ''}>
        Set
      </button>
    </form>
  );
}

const dateWords = (iso: string): string => new Date(iso).toLocaleDateString();
