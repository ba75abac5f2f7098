import { useId } from 'react';
import type { ReachItem, TrustChanges } from '../../../../engine/api';
import { Badge } from '../../components/Badge';
import { Because, ReachWhat } from './ReachSection';
import { KIND_WORDS, reachLines } from './reach-words';

/** What the org can run or reach that it could not when the person trusted it, and what it no longer can. */
export function WhatChanged({ changes }: { changes: TrustChanges }) {
  const headingId = useId();
  const nothingListed = changes.added.length === 0 && changes.removed.length === 0;
  return (
    <section className="trust-section trust-changes" aria-labelledby={headingId}>
      <h3 id={headingId}>What changed</h3>
      <p className="trust-explanation">
        {nothingListed
          ? 'Its settings changed in a way the app cannot read; look at the whole list below.'
          : 'Since you trusted it, this is new, and this is no longer there:'}
      </p>
      <ChangeList title="New" tone="warn" items={changes.added} />
      <ChangeList title="No longer there" tone="neutral" items={changes.removed} />
    </section>
  );
}

function ChangeList({ title, tone, items }: { title: string; tone: 'warn' | 'neutral'; items: ReachItem[] }) {
  const headingId = useId();
  if (items.length === 0) return null;
  return (
    <>
      <h4 id={headingId} className="trust-change-title">
        {title}
      </h4>
      <ul className="trust-lines" aria-labelledby={headingId}>
        {reachLines(items).map((line) => (
          <li key={`${line.kind}:${line.subject}`} className="trust-line">
            <Badge tone={tone}>{KIND_WORDS[line.kind]}</Badge>
            <ReachWhat line={line} />
            <Because line={line} />
          </li>
        ))}
      </ul>
    </>
  );
}
