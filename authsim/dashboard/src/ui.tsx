import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { ControlError } from "@authsim/sdk/emulator";
import { ApiError } from "./api.ts";

/** Small building blocks shared by the panels: loading with errors, polling, copy buttons, forms and JSON editing. */

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return `${error.status}${error.code ? ` ${error.code}` : ""}: ${error.message}`;
  if (error instanceof ControlError) return `${error.status}: ${error.reason}`;
  return error instanceof Error ? error.message : String(error);
}

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  reload: () => void;
}

/** Loads on mount and whenever `key` changes; `reload()` loads again. Late answers of an old key are dropped. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let live = true;
    loadRef.current().then(
      (value) => {
        if (!live) return;
        setData(value);
        setError(null);
      },
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, reload };
}

/** Calls `fn` every `millis` while mounted (the emulator pushes nothing, so the dashboard polls). */
export function useInterval(fn: () => void, millis: number): void {
  const ref = useRef(fn);
  ref.current = fn;
  useEffect(() => {
    const timer = setInterval(() => ref.current(), millis);
    return () => clearInterval(timer);
  }, [millis]);
}

/** Runs an action, showing its error (or nothing) next to the button that started it. */
export interface Action {
  busy: boolean;
  error: string | null;
  run: (action: () => Promise<unknown>) => Promise<boolean>;
  /** A form's onSubmit that runs `action` instead of letting the browser post the form. */
  submit: (action: () => Promise<unknown>) => (event: FormEvent) => void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  const submit = useCallback(
    (action: () => Promise<unknown>) => (event: FormEvent) => {
      event.preventDefault();
      void run(action);
    },
    [run],
  );
  return { busy, error, run, submit };
}

export function ErrorBox({ error }: { error: string | null | undefined }) {
  return error ? (
    <p role="alert" className="error">
      {error}
    </p>
  ) : null;
}

export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(value).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1200);
    });
  };
  return (
    <button type="button" className="small" onClick={copy} title={value}>
      {copied ? "Copied" : label}
    </button>
  );
}

export function Secret({ label, value }: { label: string; value: string | null }) {
  return (
    <div className="secret">
      <span className="muted">{label}</span>
      <code>{value ?? "—"}</code>
      {value && <CopyButton value={value} label={`Copy ${label}`} />}
    </div>
  );
}

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="card">
      <header>
        <h2>{title}</h2>
        <div className="actions">{actions}</div>
      </header>
      {children}
    </section>
  );
}

/** The provider's time as UTC, second precision: it is the emulated clock, which may be far from the wall clock. */
export const formatTime = (millis: number) =>
  new Date(millis)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d{3}Z$/, "Z");

export function jsonText(value: unknown): string {
  return value === null || value === undefined ? "" : JSON.stringify(value, null, 2);
}

/** Parses a JSON editor's text ("" is null), throwing a readable error. */
export function parseJson(label: string, text: string): unknown {
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`${label} is not valid JSON.`);
  }
}

/** Saves JSON text as a file download (a Blob URL: nothing leaves the machine). */
export function download(filename: string, value: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
