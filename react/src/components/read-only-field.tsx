import { useId } from "react";

/** A labelled value to copy (a secret key, a setup link): a read-only input, so it is selectable and announced. */
export function ReadOnlyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <div className="authsim-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} readOnly value={value} onFocus={(e) => e.target.select()} />
    </div>
  );
}
