import { useState } from "react";
import { callOperation, control, type ProjectEntry } from "../api.ts";
import { ErrorBox, Section, useAction, useLoad } from "../ui.tsx";

/** Items: the project's catalogue, and a customer's live quantity of one item, changed by a signed delta. */

export function ItemsPanel({ project }: { project: ProjectEntry }) {
  const catalogue = useLoad(() => control.call("paymentsConfig", { params: { project_id: project.id } }), project.id);
  const users = useLoad(
    () => callOperation(project, "server", "listUsers", { query: { limit: 500 } }).then((r) => r.items),
    "users",
  );
  const teams = useLoad(() => callOperation(project, "server", "listTeams").then((r) => r.items), "teams");
  const [itemId, setItemId] = useState("");
  const [customerId, setCustomerId] = useState("");
  const [delta, setDelta] = useState("1");
  const [quantity, setQuantity] = useState<number | null>(null);
  const action = useAction();
  const items = Object.entries(catalogue.data?.payments.items ?? {});
  const item = catalogue.data?.payments.items[itemId];
  const type = item?.customer_type;
  const itemParams = type && customerId ? { customer_type: type, customer_id: customerId, item_id: itemId } : null;
  const read = async () =>
    setQuantity((await callOperation(project, "server", "getItem", { params: itemParams! })).quantity);
  const change = async () => {
    await callOperation(project, "server", "updateItemQuantity", {
      params: itemParams!,
      query: { allow_negative: "true" },
      body: { delta: Number(delta) },
    });
    await read();
  };
  const customers =
    type === "user"
      ? (users.data ?? []).map((u) => [u.id, u.primary_email ?? u.display_name ?? u.id] as const)
      : type === "team"
        ? (teams.data ?? []).map((t) => [t.id, t.display_name] as const)
        : [];
  return (
    <Section title="Items">
      <ErrorBox error={catalogue.error ?? action.error} />
      {items.length === 0 && (
        <p className="muted">
          This project's catalogue has no items (PUT /__emulator/projects/:id/payments-config, or a fixture).
        </p>
      )}
      <div className="stack">
        <label>
          Item
          <select
            aria-label="Item"
            value={itemId}
            onChange={(e) => {
              setItemId(e.target.value);
              setCustomerId("");
              setQuantity(null);
            }}
          >
            <option value="">choose…</option>
            {items.map(([id, i]) => (
              <option key={id} value={id}>
                {i.display_name} ({id}, for {i.customer_type}s)
              </option>
            ))}
          </select>
        </label>
        {type === "custom" ? (
          <label>
            Custom customer id <input value={customerId} onChange={(e) => setCustomerId(e.target.value)} />
          </label>
        ) : (
          type && (
            <label>
              Customer
              <select
                aria-label="Customer"
                value={customerId}
                onChange={(e) => {
                  setCustomerId(e.target.value);
                  setQuantity(null);
                }}
              >
                <option value="">choose…</option>
                {customers.map(([id, label]) => (
                  <option key={id} value={id}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
          )
        )}
        {itemParams && (
          <div className="inline">
            <button onClick={() => void action.run(read)}>Read quantity</button>
            <output data-testid="item-quantity">{quantity ?? "?"}</output>
            <input aria-label="Delta" type="number" value={delta} onChange={(e) => setDelta(e.target.value)} />
            <button onClick={() => void action.run(change)}>Apply delta</button>
          </div>
        )}
      </div>
    </Section>
  );
}
