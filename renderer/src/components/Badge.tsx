import type { ReactNode } from 'react';
import './components.css';

export type BadgeTone = 'ok' | 'bad' | 'warn' | 'neutral' | 'info';

/** A state in words and colour (never colour alone). */
export function Badge({ tone, children, label }: { tone: BadgeTone; children: ReactNode; label?: string }) {
  return (
    <span className={`badge ${tone}`} {...(label ? { title: label } : {})}>
      {children}
    </span>
  );
}
