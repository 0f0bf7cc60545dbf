import { useId, type ReactNode } from "react";

/** Plain, accessible building blocks shared by the pages: a titled section, labelled fields, a busy-aware button. */

export function AuthPage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="authsim-page" aria-labelledby="authsim-page-title">
      <h1 id="authsim-page-title">{title}</h1>
      {children}
    </section>
  );
}

export interface FieldProps {
  label: string;
  name: string;
  type?: "text" | "email" | "password";
  autoComplete?: string;
  value: string;
  onChange(value: string): void;
  required?: boolean;
  /** The on-screen keyboard to offer (e.g. "numeric" for a TOTP code). */
  inputMode?: "text" | "numeric" | "email";
}

export function Field({
  label,
  name,
  type = "text",
  autoComplete,
  value,
  onChange,
  required = true,
  inputMode,
}: FieldProps) {
  const id = useId();
  return (
    <div className="authsim-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        inputMode={inputMode}
        value={value}
        required={required}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

export function SubmitButton({ pending, children }: { pending: boolean; children: ReactNode }) {
  return (
    <button type="submit" disabled={pending} aria-busy={pending}>
      {children}
    </button>
  );
}

/** A status line (e.g. "Redirecting…"), announced politely. */
export function Status({ children }: { children?: ReactNode }) {
  if (!children) return null;
  return (
    <p role="status" className="authsim-status">
      {children}
    </p>
  );
}
