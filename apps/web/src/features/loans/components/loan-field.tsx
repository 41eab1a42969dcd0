import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';

/**
 * One field of the calculator: its label above the control, then the field's refusal (`error`, red,
 * announced) and a note (`extra`), in the layout of the app's vertical forms. Plain markup rather than
 * Ant Design's `Form.Item`: the calculator keeps its own state and rules, and each `Form.Item` added a
 * grid row with its own breakpoint subscription, two timers and a forced layout to the calculator's
 * mount (docs/performance.md, "Lighthouse: the loan calculator mounted in stages"). Name the control
 * by `htmlFor` (an input's id) or, for a group, by `labelId` (its `aria-labelledby`); the refusal's
 * and the note's ids are `${htmlFor}-error` and `${htmlFor}-extra` (`describedByOf`).
 */
export function LoanField({
  label,
  htmlFor,
  labelId,
  error,
  extra,
  children,
}: {
  label: string;
  htmlFor?: string;
  labelId?: string;
  error?: string;
  extra?: string;
  children: ReactNode;
}) {
  // Ant Design's large forms give the label a control's height; the others, its text's.
  const isLarge = ConfigProvider.useConfig().componentSize === 'large';
  const className = ['loan-field', isLarge && 'loan-field--large', error && 'loan-field--error']
    .filter(Boolean)
    .join(' ');
  return (
    <div className={className}>
      <label className="loan-field__label" htmlFor={htmlFor} id={labelId}>
        {label}
      </label>
      {children}
      {error && (
        <div className="loan-field__error" id={htmlFor && `${htmlFor}-error`} role="alert">
          {error}
        </div>
      )}
      {extra && (
        <div className="loan-field__extra" id={htmlFor && `${htmlFor}-extra`}>
          {extra}
        </div>
      )}
    </div>
  );
}

/** The `aria-describedby` of the control of a `LoanField` with `htmlFor` = `id`: its refusal and note, where shown. */
export function describedByOf(id: string, error: string | undefined, extra: string | undefined): string | undefined {
  const ids = [error && `${id}-error`, extra && `${id}-extra`].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}
