import { useState, type FormEvent } from "react";
import { Section } from "../ui.tsx";
import { Check, Choice, Entry, entriesOf, Text, type Edit } from "./fields.tsx";
import type { JsonObject } from "./model.ts";

const CUSTOMER_TYPES = ["user", "team", "custom"] as const;

/** A new entry's id and name, then `make` builds the entry written under `map.<id>`. */
function AddEntry({
  edit,
  map,
  what,
  make,
  extra,
}: {
  edit: Edit;
  map: string;
  what: string;
  make: (name: string, type: string) => JsonObject;
  extra?: boolean;
}) {
  const [id, setId] = useState("");
  const [name, setName] = useState("");
  const [type, setType] = useState<string>("user");
  const add = (event: FormEvent) => {
    event.preventDefault();
    edit.set(`${map}.${id.trim()}`, make(name.trim() || id.trim(), type));
    setId("");
    setName("");
  };
  return (
    <form className="inline" onSubmit={add}>
      <label>
        {what} id <input aria-label={`New ${what} id`} value={id} onChange={(e) => setId(e.target.value)} required />
      </label>
      <label>
        Name <input aria-label={`New ${what} name`} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      {extra !== false && (
        <label>
          Customer
          <select aria-label={`New ${what} customer type`} value={type} onChange={(e) => setType(e.target.value)}>
            {CUSTOMER_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
      )}
      <button type="submit">Add {what}</button>
    </form>
  );
}

/** A product's prices and included items in a line (edited whole through the product's JSON on the config, not here). */
function productSummary(p: JsonObject): string {
  const prices =
    p.prices === "include-by-default"
      ? "free, included by default"
      : Object.keys(typeof p.prices === "object" && p.prices !== null ? p.prices : {}).join(", ") || "no prices";
  const items = Object.keys(typeof p.includedItems === "object" && p.includedItems !== null ? p.includedItems : {});
  return `prices: ${prices}${items.length ? `; includes ${items.join(", ")}` : ""}`;
}

/**
 * Payments (config `payments`): items (what a customer holds a quantity of) and products (what a customer buys), and
 * test mode; each item and product written whole, as the real dashboard writes them.
 */
export function Payments({ edit }: { edit: Edit }) {
  const items = entriesOf(edit, "payments.items");
  const products = entriesOf(edit, "payments.products");
  return (
    <Section title="Payments">
      <div className="stack">
        <Check
          edit={edit}
          path="payments.testMode"
          label="Test mode"
          hint="purchases complete without a real payment"
        />
      </div>
      <h3>Items</h3>
      {items.map(([id]) => (
        <Entry key={id} edit={edit} path={`payments.items.${id}`} title={id}>
          <Text edit={edit} path={`payments.items.${id}.displayName`} label="Name" />
          <Choice edit={edit} path={`payments.items.${id}.customerType`} label="Customer" options={CUSTOMER_TYPES} />
        </Entry>
      ))}
      <AddEntry
        edit={edit}
        map="payments.items"
        what="item"
        make={(displayName, customerType) => ({ displayName, customerType })}
      />
      <h3>Products</h3>
      {products.map(([id, p]) => (
        <Entry key={id} edit={edit} path={`payments.products.${id}`} title={id}>
          <Text edit={edit} path={`payments.products.${id}.displayName`} label="Name" />
          <Choice edit={edit} path={`payments.products.${id}.customerType`} label="Customer" options={CUSTOMER_TYPES} />
          <Text edit={edit} path={`payments.products.${id}.productLineId`} label="Product line" placeholder="none" />
          <Check edit={edit} path={`payments.products.${id}.serverOnly`} label="Server only" />
          <Check edit={edit} path={`payments.products.${id}.stackable`} label="Stackable" />
          <span className="muted">{productSummary(p)}</span>
        </Entry>
      ))}
      <AddProduct edit={edit} items={items.map(([id]) => id)} />
    </Section>
  );
}

/** A new product: a monthly (or one-off) USD price and, optionally, a quantity of one item it includes. */
function AddProduct({ edit, items }: { edit: Edit; items: string[] }) {
  const [id, setId] = useState("");
  const [name, setName] = useState("");
  const [type, setType] = useState("user");
  const [usd, setUsd] = useState("");
  const [interval, setInterval] = useState("month");
  const [item, setItem] = useState("");
  const [quantity, setQuantity] = useState("1");
  const add = (event: FormEvent) => {
    event.preventDefault();
    const price: JsonObject = { USD: usd.trim() };
    if (interval !== "once") price.interval = [1, interval];
    const product: JsonObject = {
      displayName: name.trim() || id.trim(),
      customerType: type,
      serverOnly: false,
      stackable: false,
      prices: usd.trim() === "" ? "include-by-default" : { [`${id.trim()}-price`]: price },
      includedItems: item
        ? { [item]: { quantity: Number(quantity), repeat: "never", expires: "when-purchase-expires" } }
        : {},
    };
    edit.set(`payments.products.${id.trim()}`, product);
    setId("");
    setName("");
    setUsd("");
  };
  return (
    <form className="inline" onSubmit={add}>
      <label>
        Product id <input aria-label="New product id" value={id} onChange={(e) => setId(e.target.value)} required />
      </label>
      <label>
        Name <input aria-label="New product name" value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        Customer
        <select aria-label="New product customer type" value={type} onChange={(e) => setType(e.target.value)}>
          {CUSTOMER_TYPES.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <label>
        USD{" "}
        <input
          aria-label="New product price in USD"
          placeholder="9.99 (empty: free)"
          value={usd}
          onChange={(e) => setUsd(e.target.value)}
          size={8}
        />
      </label>
      <label>
        Every
        <select
          aria-label="New product billing interval"
          value={interval}
          onChange={(e) => setInterval(e.target.value)}
        >
          <option value="month">month</option>
          <option value="year">year</option>
          <option value="once">once</option>
        </select>
      </label>
      <label>
        Includes
        <select aria-label="New product included item" value={item} onChange={(e) => setItem(e.target.value)}>
          <option value="">no item</option>
          {items.map((i) => (
            <option key={i}>{i}</option>
          ))}
        </select>
      </label>
      {item && (
        <label>
          ×{" "}
          <input
            aria-label="New product included quantity"
            type="number"
            min="0"
            value={quantity}
            onChange={(e) => setQuantity(e.target.value)}
            size={4}
          />
        </label>
      )}
      <button type="submit">Add product</button>
    </form>
  );
}

/** Data-vault stores (config `dataVault.stores`): the stores the server API may read and write encrypted values in. */
export function VaultStores({ edit }: { edit: Edit }) {
  return (
    <Section title="Data vault">
      {entriesOf(edit, "dataVault.stores").map(([id]) => (
        <Entry key={id} edit={edit} path={`dataVault.stores.${id}`} title={id}>
          <Text edit={edit} path={`dataVault.stores.${id}.displayName`} label="Name" />
        </Entry>
      ))}
      <AddEntry
        edit={edit}
        map="dataVault.stores"
        what="store"
        extra={false}
        make={(displayName) => ({ displayName })}
      />
    </Section>
  );
}
