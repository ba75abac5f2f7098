import { useToasts, type Toast } from './toast-store';
import './components.css';

/** Errors are announced at once, confirmations when the reader is idle. */
export function Toasts() {
  const toasts = useToasts((store) => store.toasts);
  const errors = toasts.filter((item) => item.tone === 'error');
  const others = toasts.filter((item) => item.tone !== 'error');
  return (
    <div className="toasts">
      <section aria-label="Errors" aria-live="assertive" className="toast-stack">
        {errors.map((item) => (
          <ToastCard key={item.id} toast={item} />
        ))}
      </section>
      <section aria-label="Notifications" aria-live="polite" className="toast-stack">
        {others.map((item) => (
          <ToastCard key={item.id} toast={item} />
        ))}
      </section>
    </div>
  );
}

function ToastCard({ toast }: { toast: Toast }) {
  const dismiss = useToasts((store) => store.dismiss);
  return (
    <div className={`toast toast-${toast.tone}`} data-toast={toast.tone}>
      <div className="toast-body">
        <strong>{toast.title}</strong>
        {toast.detail && <p className="toast-detail">{toast.detail}</p>}
      </div>
      {toast.action && (
        <button
          type="button"
          onClick={() => {
            toast.action?.run();
            dismiss(toast.id);
          }}
        >
          {toast.action.label}
        </button>
      )}
      <button
        type="button"
        className="ghost"
        aria-label={`Dismiss: ${toast.title}`}
        onClick={() => dismiss(toast.id)}
      >
        ×
      </button>
    </div>
  );
}
