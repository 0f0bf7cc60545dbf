import type { ReactNode } from "react";
import { getPath, type Json, type JsonObject } from "./model.ts";

/**
 * The inputs the settings sections are made of: each reads its value from the draft config by dotted path and writes
 * it back through `edit.set`, and is marked when it differs from what the service holds (so a person sees what the
 * pending diff is made of).
 */
export interface Edit {
  /** The config as the service rendered it. */
  base: JsonObject;
  /** The config with this page's edits. */
  draft: JsonObject;
  set: (path: string, value: Json | undefined) => void;
}

const changed = (edit: Edit, path: string) =>
  JSON.stringify(getPath(edit.base, path)) !== JSON.stringify(getPath(edit.draft, path));

export function Check({ edit, path, label, hint }: { edit: Edit; path: string; label: string; hint?: string }) {
  return (
    <label className={`check${changed(edit, path) ? " changed" : ""}`}>
      <input
        type="checkbox"
        checked={getPath(edit.draft, path) === true}
        onChange={(e) => edit.set(path, e.target.checked)}
      />
      <span>
        {label}
        {hint && <span className="muted hint"> {hint}</span>}
      </span>
    </label>
  );
}

export function Text({
  edit,
  path,
  label,
  type = "text",
  placeholder,
}: {
  edit: Edit;
  path: string;
  label: string;
  type?: "text" | "password" | "number" | "url";
  placeholder?: string;
}) {
  const value = getPath(edit.draft, path);
  return (
    <label className={`field${changed(edit, path) ? " changed" : ""}`}>
      <span>{label}</span>
      <input
        type={type}
        value={value === undefined || value === null ? "" : String(value)}
        placeholder={placeholder}
        onChange={(e) => {
          const raw = e.target.value;
          // An emptied field removes its key, so the diff does not carry an empty string the person never meant.
          edit.set(path, raw === "" ? undefined : type === "number" ? Number(raw) : raw);
        }}
      />
    </label>
  );
}

export function Choice({
  edit,
  path,
  label,
  options,
}: {
  edit: Edit;
  path: string;
  label: string;
  options: readonly string[];
}) {
  const value = getPath(edit.draft, path);
  return (
    <label className={`field${changed(edit, path) ? " changed" : ""}`}>
      <span>{label}</span>
      <select value={typeof value === "string" ? value : ""} onChange={(e) => edit.set(path, e.target.value)}>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

/** One entry of a map (a provider, a domain, an item …): its id, its fields, and a remove button. */
export function Entry({
  edit,
  path,
  title,
  children,
}: {
  edit: Edit;
  path: string;
  title: string;
  children: ReactNode;
}) {
  const isNew = getPath(edit.base, path) === undefined;
  return (
    <fieldset className={`entry${isNew ? " added" : changed(edit, path) ? " changed" : ""}`} data-entry={path}>
      <legend>
        <code>{title}</code>
        {isNew && <span className="badge good">new</span>}
      </legend>
      <div className="entry-fields">{children}</div>
      <button type="button" className="small danger" onClick={() => edit.set(path, undefined)}>
        Remove {title}
      </button>
    </fieldset>
  );
}

/** The entries of a map in the draft (a removed one is gone from the form; the diff still lists it until applied). */
export function entriesOf(edit: Edit, path: string): [string, JsonObject][] {
  const node = getPath(edit.draft, path);
  return node && typeof node === "object" && !Array.isArray(node)
    ? Object.entries(node).filter(
        (e): e is [string, JsonObject] => typeof e[1] === "object" && e[1] !== null && !Array.isArray(e[1]),
      )
    : [];
}
