import { useId, useState } from 'react';
import './glossary.css';

/** The words the app uses that a newcomer cannot guess, each explained in a sentence or two. */
export const GLOSSARY = {
  tick: {
    word: 'tick',
    plural: 'ticks',
    meaning:
      'One round of the org. In every tick, each agent whose schedule says so reads its new messages, thinks with its model, uses its tools and writes its answer. Ticks are counted from 1.',
  },
  outbox: {
    word: 'outbox',
    plural: 'outboxes',
    meaning:
      'Where an agent puts the messages it sends. Agents never talk directly: each reads the outboxes of the agents it listens to in the next tick.',
  },
  resume: {
    word: 'resume',
    plural: 'resumes',
    meaning:
      'An agent’s description: its name, what it is for, its instructions, its model, its schedule and what it may use. Editing an agent edits its resume.',
  },
  memory: {
    word: 'memory',
    plural: 'memories',
    meaning:
      'Short notes an agent keeps for itself between ticks, so it can remember what it decided or learned. Only that agent reads them.',
  },
  credits: {
    word: 'credits',
    plural: 'credits',
    meaning:
      'What each agent spends when it takes a turn and calls its model. An agent with no credits left does not take its turn until you give it more. Budgets (per day or month, for one agent or the whole org) pause an agent before a call that would go over them, until you resume it or the day or month ends.',
  },
  schedule: {
    word: 'schedule',
    plural: 'schedules',
    meaning:
      'Which ticks an agent acts in: every tick, or every few ticks (for example every 3rd tick, starting at tick 2).',
  },
} as const;

export type GlossaryTerm = keyof typeof GLOSSARY;

/**
 * A word of the glossary where it appears on screen: it reads as the word, and a click (or Enter) opens
 * its meaning right there.
 */
export function GlossaryLink({ term, plural = false }: { term: GlossaryTerm; plural?: boolean }) {
  const [open, setOpen] = useState(false);
  const meaningId = useId();
  const entry = GLOSSARY[term];
  return (
    <span className="glossary">
      <button
        type="button"
        className="glossary-word"
        aria-expanded={open}
        aria-controls={meaningId}
        title={`What is a ${entry.word}?`}
        onClick={() => setOpen(!open)}
      >
        {plural ? entry.plural : entry.word}
      </button>
      {open && (
        <span id={meaningId} className="glossary-meaning" role="note">
          <strong>{entry.word[0]!.toUpperCase() + entry.word.slice(1)}:</strong> {entry.meaning}
        </span>
      )}
    </span>
  );
}

/** The whole glossary, for the Settings view. */
export function GlossaryList() {
  return (
    <dl className="glossary-list">
      {Object.entries(GLOSSARY).map(([term, entry]) => (
        <div key={term}>
          <dt>{entry.word[0]!.toUpperCase() + entry.word.slice(1)}</dt>
          <dd>{entry.meaning}</dd>
        </div>
      ))}
    </dl>
  );
}
