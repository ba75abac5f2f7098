import { useId } from 'react';
import './components.css';

interface ToolSearchProps {
  /** Says whose tools these are ("Search researcher's tools"). */
  label: string;
  query: string;
  onChange(query: string): void;
  shown: number;
  total: number;
}

/** A search box over a long list of tools, saying how many of them it shows. */
export function ToolSearch({ label, query, onChange, shown, total }: ToolSearchProps) {
  const id = useId();
  return (
    <div className="tool-search">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="search" value={query} onChange={(event) => onChange(event.target.value)} />
      <span className="muted" role="status">
        {shown === total ? `${total} tools` : `${shown} of ${total} tools`}
      </span>
    </div>
  );
}
